/** The desktop app's per-ROM cheat list: the file, and adding, enabling and disabling codes. */
package lockstep.nes.desktop.cheats;
