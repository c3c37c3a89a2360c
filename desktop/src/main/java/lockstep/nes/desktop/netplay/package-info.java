/**
 * Netplay in the window: hosting or joining a session of the netplay module's rollback engine,
 * driven one step per pass of the window's loop, and the on-screen line of its figures.
 */
package lockstep.nes.desktop.netplay;
