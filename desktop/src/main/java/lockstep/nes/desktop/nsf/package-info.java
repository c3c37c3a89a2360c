/** NSF music in the desktop app: the track playing, track switching and the on-screen tags. */
package lockstep.nes.desktop.nsf;
