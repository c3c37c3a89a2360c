package lockstep.nes.netplay;

import java.util.Arrays;

/**
 * One side's inputs, frame by frame, from frame 0: bits 0-7 the controller's buttons, bit 8 a
 * soft reset and bit 9 a power cycle at the start of the frame. Only a contiguous prefix is
 * known; inputs arrive in order of frame (a later one waits for the gap to fill).
 */
final class InputLog {
    static final int BUTTONS = 0xFF;
    static final int RESET = 0x100;
    static final int POWER = 0x200;

    private int[] inputs = new int[1024];
    private int known;

    /** Frames [0, known) are known. */
    int known() {
        return known;
    }

    int get(int frame) {
        return inputs[frame];
    }

    /** Appends frame {@code known()}'s input. */
    void add(int input) {
        if (known == inputs.length) {
            inputs = Arrays.copyOf(inputs, inputs.length * 2);
        }
        inputs[known++] = input & 0x3FF;
    }

    /** The input a frame not known yet is predicted to have: the last known buttons held, no command. */
    int predict() {
        return known == 0 ? 0 : inputs[known - 1] & BUTTONS;
    }

    /** A copy of the known inputs. */
    int[] toArray() {
        return Arrays.copyOf(inputs, known);
    }
}
