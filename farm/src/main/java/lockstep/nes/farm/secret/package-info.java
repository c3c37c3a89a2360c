/**
 * Secrets in the farm's URLs: {@link lockstep.nes.farm.secret.UrlCredentials} splits a URL's
 * credentials off (and masks them for every message and log line), and {@link
 * lockstep.nes.farm.secret.UrlSource} reads a URL from a file or an environment variable, so a
 * password need not appear in a process's arguments (visible to {@code ps}).
 */
package lockstep.nes.farm.secret;
