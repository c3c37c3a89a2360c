package lockstep.nes.core.digest;

import java.util.Random;

import lockstep.nes.core.Console;

/**
 * Seeded per-frame input for the digest tests: random buttons, the same on two engines that must
 * stay alike, and a random run into the middle of a frame.
 */
final class SeededInput {
    private SeededInput() {
    }

    /** Random buttons on one frame in eight, none on the others. */
    static int buttons(Random r) {
        return r.nextInt(8) == 0 ? r.nextInt(256) : 0;
    }

    /** The same random buttons on port 0 of both consoles. */
    static void port0(Random r, Console a, Console b) {
        int p = buttons(r);
        a.setButtons(0, p);
        b.setButtons(0, p);
    }

    /** The same random buttons on both ports of both consoles (port 0's drawn first). */
    static void bothPorts(Random r, Console a, Console b) {
        port0(r, a, b);
        int p1 = buttons(r);
        a.setButtons(1, p1);
        b.setButtons(1, p1);
    }

    /** Where {@link #runIntoAFrame} stopped: after {@code frames} whole frames and {@code cycles} more. */
    record Stop(int frames, int cycles) {
    }

    /** Runs {@code c} 20-59 frames with random buttons on port 0, then 0-29,779 cycles into the next. */
    static Stop runIntoAFrame(Random r, Console c) {
        int frames = 20 + r.nextInt(40);
        for (int f = 0; f < frames; f++) {
            c.setButtons(0, buttons(r));
            c.runFrame();
        }
        int cycles = r.nextInt(29_780);
        for (int i = 0; i < cycles; i++) {
            c.runCycle();
        }
        return new Stop(frames, cycles);
    }
}
