package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateEntry;
import lockstep.nes.state.Stateful;
import org.junit.jupiter.api.Test;

/**
 * Each channel's bulk {@code skip(n)} leaves exactly the state that {@code n} calls of
 * {@code step()} leave, and within {@code quietSpan()} the output never changes, for random
 * registers, timer phases and spans (with many timer expiries, whether or not the channel is
 * sounding). The APU's lazy catch-up relies on both.
 */
class ChannelSkipTest {
    private static final int ROUNDS = 3000;

    private static String text(Stateful s) {
        StringBuilder b = new StringBuilder();
        for (StateEntry e : Describer.describe(s)) {
            b.append(e.path()).append('=').append(e.scalarText()).append(' ');
        }
        return b.toString();
    }

    private static int span(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> 1 + r.nextInt(4);
            case 1 -> 1 + r.nextInt(100);
            case 2 -> 1 + r.nextInt(5000);
            default -> 1 + r.nextInt(40_000);
        };
    }

    /** Some steps first, so timers and sequencers start at random phases. */
    private static int warm(Random r) {
        return r.nextInt(3000);
    }

    /** What the skip tests use of a channel (Pulse, Triangle and Noise share no interface). */
    private record Channel(Stateful state, IntSupplier quietSpan, IntSupplier output, Runnable step, IntConsumer skip) {
        static Channel of(Pulse p) {
            return new Channel(p, p::quietSpan, p::output, p::step, p::skip);
        }

        static Channel of(Triangle t) {
            return new Channel(t, t::quietSpan, t::output, t::step, t::skip);
        }

        static Channel of(Noise c) {
            return new Channel(c, c::quietSpan, c::output, c::step, c::skip);
        }
    }

    /**
     * For random channels ({@code make(seed, warm steps)}) and spans: the output stays put
     * within the quiet span while stepping, and {@code skip(n)} (also beyond the quiet span:
     * sequencers and the LFSR advance by the timer expiries) leaves the state n steps leave.
     */
    private static void assertSkipEqualsSteps(int seed, BiFunction<Long, Integer, Channel> make) {
        Random r = new Random(seed);
        for (int round = 0; round < ROUNDS; round++) {
            long s = r.nextLong();
            int w = warm(r);
            int n = span(r);
            Channel a = make.apply(s, w);
            Channel b = make.apply(s, w);
            int quiet = a.quietSpan().getAsInt();
            int out = a.output().getAsInt();
            for (int i = 0; i < n; i++) {
                a.step().run();
                if (i < quiet) {
                    assertEquals(out, a.output().getAsInt(), "output within the quiet span, round " + round);
                }
            }
            b.skip().accept(n);
            assertEquals(text(a.state()), text(b.state()), "round " + round + " n " + n);
        }
    }

    @Test
    void pulseSkipEqualsSteps() {
        assertSkipEqualsSteps(1, (seed, warm) -> Channel.of(pulse(seed, warm)));
    }

    private static Pulse pulse(long seed, int warm) {
        Random r = new Random(seed);
        Pulse p = new Pulse(r.nextBoolean());
        p.power();
        p.length.setEnabled(r.nextInt(4) != 0);
        p.write(0, r.nextInt(256));
        p.write(1, r.nextInt(3) == 0 ? r.nextInt(256) : 0);
        p.write(2, r.nextInt(256));
        p.write(3, r.nextInt(256));
        p.length.applyWrites();
        p.quarterFrame(); // starts the envelope
        for (int i = 0; i < warm; i++) {
            p.step();
        }
        return p;
    }

    @Test
    void triangleSkipEqualsStepsWhetherOrNotItsSequencerRuns() {
        assertSkipEqualsSteps(2, (seed, warm) -> Channel.of(triangle(seed, warm)));
    }

    private static Triangle triangle(long seed, int warm) {
        Random r = new Random(seed);
        Triangle t = new Triangle();
        t.power();
        t.length.setEnabled(r.nextInt(4) != 0);
        t.write(0, r.nextInt(256));
        t.write(2, r.nextInt(8) == 0 ? r.nextInt(3) : r.nextInt(256));
        t.write(3, r.nextInt(256));
        t.length.applyWrites();
        t.quarterFrame(); // loads the linear counter
        for (int i = 0; i < warm; i++) {
            t.step();
        }
        return t;
    }

    @Test
    void noiseSkipEqualsStepsInBothModes() {
        assertSkipEqualsSteps(3, (seed, warm) -> Channel.of(noise(seed, warm)));
    }

    /** One shift of the noise LFSR, written out here as the reference for the position tables. */
    private static int lfsr(int s, boolean shortMode) {
        return (s >> 1) | (((s ^ (s >> (shortMode ? 6 : 1))) & 1) << 14);
    }

    @Test
    void noiseLfsrJumpEqualsShiftsFromEveryRegisterValue() {
        for (int mode = 0; mode < 2; mode++) {
            boolean shortMode = mode == 1;
            // Every 16-bit value (a loaded state may hold bit 15, and 0 stays 0), up to 300 shifts.
            for (int start = 0; start < 1 << 16; start++) {
                int s = start;
                for (int e = 0; e <= 300; e++) {
                    if (s != Noise.shifted(start, shortMode, e)) {
                        assertEquals(s, Noise.shifted(start, shortMode, e), "start " + start + " e " + e + " short " + shortMode);
                    }
                    s = lfsr(s, shortMode);
                }
            }
            // Some values through more than a whole long-mode period.
            for (int start = 1; start < 1 << 16; start += 997) {
                int s = start;
                for (int e = 0; e <= 70_000; e++) {
                    if (s != Noise.shifted(start, shortMode, e)) {
                        assertEquals(s, Noise.shifted(start, shortMode, e), "start " + start + " e " + e + " short " + shortMode);
                    }
                    s = lfsr(s, shortMode);
                }
            }
        }
    }

    private static Noise noise(long seed, int warm) {
        Random r = new Random(seed);
        Noise c = new Noise();
        c.power();
        c.length.setEnabled(r.nextInt(4) != 0);
        c.write(0, r.nextInt(256));
        c.write(2, r.nextInt(256));
        c.write(3, r.nextInt(256));
        c.length.applyWrites();
        c.quarterFrame();
        for (int i = 0; i < warm; i++) {
            c.step();
        }
        return c;
    }

    @Test
    void dmcSkipEqualsStepsWithinItsQuietSpan() {
        Random r = new Random(4);
        lockstep.nes.core.Dma dma = TestCarts.nopConsole().dma();
        int spans = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long seed = r.nextLong();
            int w = warm(r);
            Dmc a = dmc(dma, seed, w);
            Dmc b = dmc(dma, seed, w);
            if (!a.quiet() || a.quietSpan() == 0) {
                continue;
            }
            int n = Math.min(span(r), a.quietSpan());
            int level = a.level;
            for (int i = 0; i < n; i++) {
                a.step();
                assertEquals(level, a.level, "level within the quiet span, round " + round);
            }
            b.skip(n);
            assertEquals(text(a), text(b), "round " + round + " n " + n);
            spans++;
        }
        assertTrue(spans > ROUNDS / 2, "spans run: " + spans);
    }

    /** A DMC at a random rate, phase and level, silent or playing, with or without a byte buffered. */
    private static Dmc dmc(lockstep.nes.core.Dma dma, long seed, int warm) {
        Random r = new Random(seed);
        Dmc d = new Dmc(dma);
        d.power();
        d.write(0, r.nextInt(16)); // rate, no IRQ, no loop
        d.write(1, r.nextInt(128));
        for (int bytes = r.nextInt(3); bytes > 0; bytes--) {
            // Enable a 1-byte sample and deliver the fetch (the DMA unit itself is not run here).
            d.setEnabled(true, false);
            d.stepDelays();
            d.stepDelays();
            d.fetched(r.nextInt(256));
            for (int i = r.nextInt(4000); i > 0; i--) {
                d.step();
            }
        }
        for (int i = 0; i < warm; i++) {
            d.step();
        }
        return d;
    }
}
