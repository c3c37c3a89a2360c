package lockstep.nes.desktop;

import static org.lwjgl.glfw.GLFW.*;

import lockstep.nes.core.input.Controllers;
import org.lwjgl.glfw.GLFWGamepadState;

/**
 * A gamepad (through GLFW's gamepad mappings, so any pad SDL's database knows) as a NES
 * controller: the right face button is A and the bottom one B, as on the NES pad; X is also B
 * and Y also A; Back is Select; the d-pad or the left stick steers.
 */
final class GamepadMap {
    private GamepadMap() {
    }

    static int buttons(GLFWGamepadState s, double threshold) {
        int b = 0;
        if (down(s, GLFW_GAMEPAD_BUTTON_B) || down(s, GLFW_GAMEPAD_BUTTON_Y)) {
            b |= Controllers.A;
        }
        if (down(s, GLFW_GAMEPAD_BUTTON_A) || down(s, GLFW_GAMEPAD_BUTTON_X)) {
            b |= Controllers.B;
        }
        if (down(s, GLFW_GAMEPAD_BUTTON_BACK)) {
            b |= Controllers.SELECT;
        }
        if (down(s, GLFW_GAMEPAD_BUTTON_START)) {
            b |= Controllers.START;
        }
        float x = s.axes(GLFW_GAMEPAD_AXIS_LEFT_X);
        float y = s.axes(GLFW_GAMEPAD_AXIS_LEFT_Y);
        if (down(s, GLFW_GAMEPAD_BUTTON_DPAD_UP) || y < -threshold) {
            b |= Controllers.UP;
        }
        if (down(s, GLFW_GAMEPAD_BUTTON_DPAD_DOWN) || y > threshold) {
            b |= Controllers.DOWN;
        }
        if (down(s, GLFW_GAMEPAD_BUTTON_DPAD_LEFT) || x < -threshold) {
            b |= Controllers.LEFT;
        }
        if (down(s, GLFW_GAMEPAD_BUTTON_DPAD_RIGHT) || x > threshold) {
            b |= Controllers.RIGHT;
        }
        return b;
    }

    private static boolean down(GLFWGamepadState s, int button) {
        return s.buttons(button) == GLFW_PRESS;
    }
}
