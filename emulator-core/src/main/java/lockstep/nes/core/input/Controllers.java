package lockstep.nes.core.input;

import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * The controller ports: a standard controller on each of $4016/$4017, or a Four Score
 * (four controllers) when enabled. Button bits, in the order the shift register reports
 * them: A=0x01, B=0x02, Select=0x04, Start=0x08, Up=0x10, Down=0x20, Left=0x40, Right=0x80.
 *
 * <p>A read returns the serial bit in D0; D1-D4 read 0 (nothing on the expansion lines) and
 * D5-D7 are open bus. While the strobe ($4016 bit 0) is high the shift registers keep
 * reloading, so every read returns the A button. After its 8 bits a standard controller
 * returns 1s. A Four Score reports 24 bits per port: the first controller, the second one
 * (player 3 on $4016, player 4 on $4017), then an ID byte ($08 on $4016, $04 on $4017,
 * i.e. a 1 on the 20th and 19th read); after that it returns 0s.
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

    /** Buttons held now, players 1-4 (input, set from outside between cycles). */
    private final int[] buttons = new int[4];
    /** The shift registers of the two ports. */
    private final int[] shift = new int[2];
    private boolean strobe;
    /** A Four Score adapter is plugged in (players 3 and 4 are read through it). */
    private boolean fourScore;

    /** Buttons of player {@code port + 1} (0 and 1 for the two ports, 2 and 3 through a Four Score). */
    public void setButtons(int port, int mask) {
        buttons[port] = mask & 0xFF;
    }

    public int buttons(int port) {
        return buttons[port];
    }

    public void setFourScore(boolean enabled) {
        fourScore = enabled;
    }

    public boolean fourScore() {
        return fourScore;
    }

    /** CPU write to $4016. */
    public void write(int value) {
        boolean s = (value & 1) != 0;
        if (strobe || s) {
            reload();
        }
        strobe = s;
    }

    private void reload() {
        if (fourScore) {
            shift[0] = buttons[0] | (buttons[2] << 8) | (0x08 << 16);
            shift[1] = buttons[1] | (buttons[3] << 8) | (0x04 << 16);
        } else {
            shift[0] = buttons[0];
            shift[1] = buttons[1];
        }
    }

    /** CPU read of $4016 (port 0) or $4017 (port 1): bit 0 serial data, upper bits open bus. */
    public int read(int port, int openBus) {
        if (strobe) {
            reload();
        }
        int bit = shift[port] & 1;
        shift[port] = fourScore ? shift[port] >>> 1 : (shift[port] >>> 1) | 0x80;
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
        fourScore = s.bool("fourScore", fourScore);
    }
}
