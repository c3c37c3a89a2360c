/** The desktop app: a GLFW window with an OpenGL picture, OpenAL sound, keyboard and gamepads. */
package lockstep.nes.desktop;
