package lockstep.nes.core.input;

import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * Two standard controllers on $4016/$4017. Button bits, in the order the shift register
 * reports them: A=0x01, B=0x02, Select=0x04, Start=0x08, Up=0x10, Down=0x20, Left=0x40,
 * Right=0x80.
 */
public final class Controllers implements Stateful {
    public static final int A = 0x01;
    public static final int B = 0x02;
    public static final int SELECT = 0x04;
    public static final int START = 0x08;
    public static final int UP = 0x10;
    public static final int DOWN = 0x20;
    public static final int LEFT = 0x40;
    public static final int RIGHT = 0x80;

    /** Buttons held now, per port (input, set from outside between cycles). */
    private final int[] buttons = new int[2];
    /** The shift registers. */
    private final int[] shift = new int[2];
    private boolean strobe;

    public void setButtons(int port, int mask) {
        buttons[port] = mask & 0xFF;
    }

    public int buttons(int port) {
        return buttons[port];
    }

    /** CPU write to $4016. */
    public void write(int value) {
        boolean s = (value & 1) != 0;
        if (strobe || s) {
            shift[0] = buttons[0];
            shift[1] = buttons[1];
        }
        strobe = s;
    }

    /** CPU read of $4016 (port 0) or $4017 (port 1): bit 0 serial data, upper bits open bus. */
    public int read(int port, int openBus) {
        if (strobe) {
            shift[port] = buttons[port];
        }
        int bit = shift[port] & 1;
        // After 8 reads an official controller returns 1s.
        shift[port] = (shift[port] >> 1) | 0x80;
        return (openBus & 0xE0) | bit;
    }

    public int peek(int port, int openBus) {
        int sr = strobe ? buttons[port] : shift[port];
        return (openBus & 0xE0) | (sr & 1);
    }

    public void power() {
        shift[0] = 0;
        shift[1] = 0;
        strobe = false;
    }

    @Override
    public void state(StateVisitor s) {
        s.ints("buttons", buttons);
        s.ints("shift", shift);
        strobe = s.bool("strobe", strobe);
    }
}
