package lockstep.nes.core.input;

import lockstep.nes.core.ApuPhase;
import lockstep.nes.state.NotState;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

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
 *
 * <p>A Zapper can take the place of a controller on either port: its reads give the trigger
 * in D4 (1 = pulled) and the light sensor in D3 (0 = light seen), as told by the
 * {@link LightSensor} the console provides.
 */
public final class Controllers implements Digestible {
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
    /**
     * A $4016 bit 0 written on a put cycle, waiting for the next get-to-put transition to reach
     * the ports (-1: none); it reaches them at the start of CPU cycle {@link #strobeAt}.
     */
    private int pendingStrobe = -1;
    private long strobeAt;
    /** A Four Score adapter is plugged in (players 3 and 4 are read through it). */
    private boolean fourScore;
    /** The port a Zapper is plugged into, or -1. */
    private int zapperPort = -1;
    private int zapperX = -1;
    private int zapperY = -1;
    private boolean zapperTrigger;
    private final LightSensor light;

    /** Controllers with no light source (a Zapper never sees light). */
    public Controllers() {
        this((x, y) -> false);
    }

    public Controllers(LightSensor light) {
        this.light = light;
    }

    // Digest term cache (derived from the fields above; see digestTerm()).
    @NotState("digest cache")
    private boolean digestStale = true;
    @NotState("digest cache")
    private long digestCached;
    /** Counts changes for the lockstep check (the console's counter once wired). */
    private ChangeCounter changes = new ChangeCounter();

    /**
     * Counts these controllers' changes in {@code counter} (see {@link ChangeCounter}): the
     * console gives them a counter of their own that also counts into the shared one, so
     * {@link #changeCount} moves with their changes alone.
     */
    public void trackChanges(ChangeCounter counter) {
        changes = counter;
    }

    /** These controllers' changes so far (see {@link #trackChanges}). */
    public long changeCount() {
        return changes.count();
    }

    /** The state may have changed: the digest term is stale and the change is counted. */
    private void changed() {
        digestStale = true;
        changes.bump();
    }

    /** Plugs a Zapper into port 0 or 1 (-1 unplugs it). */
    public void setZapperPort(int port) {
        changed();
        zapperPort = port;
    }

    public int zapperPort() {
        return zapperPort;
    }

    /** Where the Zapper points (picture coordinates; outside 0-255 x 0-239 = off screen) and its trigger. */
    public void setZapper(int x, int y, boolean trigger) {
        changed();
        zapperX = x;
        zapperY = y;
        zapperTrigger = trigger;
    }

    /** Buttons of player {@code port + 1} (0 and 1 for the two ports, 2 and 3 through a Four Score). */
    public void setButtons(int port, int mask) {
        changed();
        buttons[port] = mask & 0xFF;
    }

    public int buttons(int port) {
        return buttons[port];
    }

    public void setFourScore(boolean enabled) {
        changed();
        fourScore = enabled;
    }

    public boolean fourScore() {
        return fourScore;
    }

    /** CPU write to $4016 reaching the ports at once (as on a get cycle). */
    public void write(int value) {
        changed();
        pendingStrobe = -1;
        strobe(value);
    }

    /**
     * CPU write to $4016 on CPU cycle {@code cycle} (numbered while it runs). The write stores
     * D0-D2 in a 2A03 latch at once, but the OUT pins copy the latch only when a get cycle turns
     * into a put cycle ({@link ApuPhase}): a write on a get cycle reaches the ports as it ends,
     * one on a put cycle only as the following get cycle ends (and not at all if a write on that
     * get cycle replaces it). So the one-cycle $41/$40 pulse of a read-modify-write strobes the
     * controller only when its $41 lands on a get cycle.
     */
    public void write(int value, long cycle) {
        changed();
        settle(cycle);
        if (ApuPhase.isGet(cycle)) {
            pendingStrobe = -1;
            strobe(value);
        } else {
            pendingStrobe = value & 1;
            strobeAt = cycle + 2;
        }
    }

    /**
     * A write waiting for the get-to-put transition reaches the ports by CPU cycle {@code cycle};
     * true when one did.
     */
    private boolean settle(long cycle) {
        if (pendingStrobe >= 0 && cycle >= strobeAt) {
            int v = pendingStrobe;
            pendingStrobe = -1;
            strobe(v);
            return true;
        }
        return false;
    }

    private void strobe(int value) {
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
        return read(port, openBus, Long.MAX_VALUE);
    }

    /** {@link #read(int, int)} on CPU cycle {@code cycle} (a write still on its way may reach the ports first). */
    public int read(int port, int openBus, long cycle) {
        if (settle(cycle)) {
            changed();
        }
        if (port == zapperPort) {
            return zapperBits(openBus);
        }
        if (strobe) {
            changed();
            reload();
        }
        final int was = shift[port];
        // A standard controller's register fills with 1s as it is read out: once it holds only
        // 1s (and the Four Score's 0s once shifted out), further reads change nothing.
        final int now = fourScore ? was >>> 1 : (was >>> 1) | 0x80;
        if (now != was) {
            shift[port] = now;
            changes.bump();
            if (!digestStale) {
                // Only the register's word moved (games poll the pads hundreds of times a frame).
                digestCached += (port == 0 ? W4 : W5) * (long) (now - was);
            }
        }
        return (openBus & 0xE0) | (was & 1);
    }

    private int zapperBits(int openBus) {
        int v = openBus & 0xE0;
        if (zapperTrigger) {
            v |= 0x10;
        }
        if (!light.lightAt(zapperX, zapperY)) {
            v |= 0x08;
        }
        return v;
    }

    public int peek(int port, int openBus) {
        return peek(port, openBus, Long.MAX_VALUE);
    }

    /** {@link #read(int, int, long)} without side effects. */
    public int peek(int port, int openBus, long cycle) {
        if (port == zapperPort) {
            return zapperBits(openBus);
        }
        // A waiting write that has arrived reloads the register (it does whenever strobe or it is high).
        boolean arrived = pendingStrobe >= 0 && cycle >= strobeAt && (strobe || pendingStrobe == 1);
        int sr = strobe || arrived ? buttons[port] : shift[port];
        return (openBus & 0xE0) | (sr & 1);
    }

    public void power() {
        changed();
        shift[0] = 0;
        shift[1] = 0;
        strobe = false;
        pendingStrobe = -1;
        strobeAt = 0;
    }

    /**
     * This component's term of the per-cycle digest ({@code DigestTerm.of(this)}): the inputs
     * change a few times a frame, so the term is cached and recomputed only after a change.
     */
    @Override
    public long digestTerm() {
        if (digestStale) {
            digestCached = fullDigestTerm();
            digestStale = false;
        }
        return digestCached;
    }

    private long fullDigestTerm() {
        return W0 * buttons[0]
        + W1 * buttons[1]
        + W2 * buttons[2]
        + W3 * buttons[3]
        + W4 * shift[0]
        + W5 * shift[1]
        + W6 * ((DigestKeys.b(strobe) << 33)
            | (DigestKeys.b(fourScore) << 32)
            | (zapperPort & 0xFFFFFFFFL))
        + W7 * (((zapperX & 0xFFFFFFFFL) << 32)
            | (zapperY & 0xFFFFFFFFL))
        + W8 * ((DigestKeys.b(zapperTrigger) << 32)
            | (pendingStrobe & 0xFFFFFFFFL))
        + W9 * strobeAt;
    }

    @Override
    public void state(StateVisitor s) {
        s.ints("buttons", buttons, 0, 0xFF);
        s.ints("shift", shift, 0, 0x8FFFF);
        strobe = s.bool("strobe", strobe);
        fourScore = s.bool("fourScore", fourScore);
        zapperPort = s.i32("zapperPort", zapperPort, -1, 1);
        zapperX = s.i32("zapperX", zapperX, Integer.MIN_VALUE, Integer.MAX_VALUE);
        zapperY = s.i32("zapperY", zapperY, Integer.MIN_VALUE, Integer.MAX_VALUE);
        zapperTrigger = s.bool("zapperTrigger", zapperTrigger);
        pendingStrobe = s.i32("pendingStrobe", pendingStrobe, -1, 1);
        strobeAt = s.i64("strobeAt", strobeAt, 0, Long.MAX_VALUE);
        changed();
    }
}
