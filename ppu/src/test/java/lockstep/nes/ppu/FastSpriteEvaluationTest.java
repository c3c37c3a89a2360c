package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import lockstep.nes.state.DigestTerm;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link FastSpriteEvaluation#run} over dots {@code from..to} equals {@link SpriteEvaluation#dot}
 * on each of them: for lines with no sprite, a few, exactly 8, and crowded ones (the overflow
 * search and its bug), both sprite heights and random OAMADDR starts, every stretch of a line is
 * run from the same evaluation state both ways and the two units' descriptions must agree.
 */
class FastSpriteEvaluationTest {

    /** The unit's whole description (registers, evaluation, memories) as a stateful. */
    private static Stateful described(SpriteEvaluation e) {
        return s -> {
            e.registerState(s);
            e.state(s);
            e.memoryState(s);
        };
    }

    private static long term(SpriteEvaluation e) {
        return DigestTerm.of(described(e));
    }

    private static void copy(SpriteEvaluation from, SpriteEvaluation to) {
        to.oam.load(from.oam.array().clone(), 0);
        to.secondaryOam.load(from.secondaryOam.array().clone(), 0);
        to.oamAddr = from.oamAddr;
        to.spriteOverflow = from.spriteOverflow;
        to.oamCopyBuffer = from.oamCopyBuffer;
        to.secondaryOamAddr = from.secondaryOamAddr;
        to.spriteAddrH = from.spriteAddrH;
        to.spriteAddrL = from.spriteAddrL;
        to.spriteInRange = from.spriteInRange;
        to.oamCopyDone = from.oamCopyDone;
        to.overflowBugCounter = from.overflowBugCounter;
        to.sprite0Added = from.sprite0Added;
        to.spriteCount = from.spriteCount;
        to.sprite0InLine = from.sprite0InLine;
    }

    private static String describe(SpriteEvaluation e) {
        StringBuilder sb = new StringBuilder();
        described(e).state(new StateVisitor() {
            @Override public void beginSection(String name) { }
            @Override public void endSection() { }
            @Override public boolean bool(String name, boolean value) { sb.append(name).append('=').append(value).append(' '); return value; }
            @Override public int u8(String name, int value) { sb.append(name).append('=').append(value).append(' '); return value; }
            @Override public int u16(String name, int value) { sb.append(name).append('=').append(value).append(' '); return value; }
            @Override public int i32(String name, int value) { sb.append(name).append('=').append(value).append(' '); return value; }
            @Override public long i64(String name, long value) { sb.append(name).append('=').append(value).append(' '); return value; }
            @Override public void bytes(String name, byte[] array) { sb.append(name).append('=').append(java.util.Arrays.toString(array)).append(' '); }
            @Override public void ints(String name, int[] array) { sb.append(name).append('=').append(java.util.Arrays.toString(array)).append(' '); }
        });
        return sb.toString();
    }

    /**
     * The fast path ending on each dot after all 64 sprites are seen: an even dot leaves secondary
     * OAM's byte at the current slot in the buffer (slot 2, $FF), an odd one primary OAM's.
     */
    @org.junit.jupiter.api.Test
    void afterTheWrapEvenDotsLeaveSecondaryOamsByteInTheBuffer() {
        for (int to = 210; to <= 256; to++) {
            final SpriteEvaluation fast = new SpriteEvaluation();
            fast.power();
            SpriteEvaluationTest.twoInRangeOfDistinctYs(fast);
            final SpriteEvaluation ref = new SpriteEvaluation();
            ref.power();
            SpriteEvaluationTest.twoInRangeOfDistinctYs(ref);
            new FastSpriteEvaluation(fast).run(1, to, 100, 0);
            for (int d = 1; d <= to; d++) {
                ref.dot(d, 100, 0);
            }
            final int expected = (to & 1) == 0 ? 0xFF : fast.oam.read(fast.oamAddr);
            assertEquals(expected, fast.oamCopyBuffer, "fast path to dot " + to);
            assertEquals(expected, ref.oamCopyBuffer, "dot model to dot " + to);
            assertEquals(describe(ref), describe(fast), "to dot " + to);
        }
    }

    /** OAM with {@code inLine} sprites on line 100 (Y 93-100 for 8x8), the rest elsewhere, in random slots. */
    private static void fill(SpriteEvaluation e, Random r, int inLine) {
        for (int i = 0; i < 256; i++) {
            e.oam.write(i, r.nextInt(256));
        }
        for (int sprite = 0; sprite < 64; sprite++) {
            e.oam.write(sprite * 4, 150 + r.nextInt(100));
        }
        for (int k = 0; k < inLine; k++) {
            e.oam.write(r.nextInt(64) * 4, 93 + r.nextInt(8));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 8, 9, 20, 64})
    void everyStretchOfALineEqualsItsDots(int inLine) {
        final int line = 100;
        Random r = new Random(inLine);
        int overflows = 0;
        for (int trial = 0; trial < 4; trial++) {
            final int ctrl = trial % 2 == 0 ? 0 : 0x20;
            SpriteEvaluation start = new SpriteEvaluation();
            start.power();
            fill(start, r, inLine);
            start.oamAddr = trial < 2 ? 0 : r.nextInt(256);
            SpriteEvaluation stepped = new SpriteEvaluation();
            SpriteEvaluation fast = new SpriteEvaluation();
            // The stepped unit goes dot by dot; at each dot "from", the fast one restarts from its
            // state and runs to every later dot "to" (a sample of them), checked against it.
            copy(start, stepped);
            SpriteEvaluation before = new SpriteEvaluation();
            for (int from = 1; from <= 256; from++) {
                copy(stepped, before);
                SpriteEvaluation reference = new SpriteEvaluation();
                copy(before, reference);
                for (int to = from; to <= 256; to++) {
                    reference.dot(to, line, ctrl);
                    if (to - from < 12 || (to + from + trial) % 11 == 0 || to == 256) {
                        copy(before, fast);
                        new FastSpriteEvaluation(fast).run(from, to, line, ctrl);
                        String where = inLine + " sprites, trial " + trial + ", dots " + from + ".." + to;
                        assertEquals(describe(reference), describe(fast), where);
                        assertEquals(term(reference), term(fast), where + ": digest");
                    }
                }
                stepped.dot(from, line, ctrl);
            }
            if (stepped.spriteOverflow) {
                overflows++;
            }
        }
        if (inLine >= 9) {
            assertTrue(overflows > 0, "crowded lines must overflow");
        }
    }

    /**
     * OAMADDR written during the line ($2003 with any value, or a $2004 write's bump), then a
     * stretch run both ways from there: a misaligned address hands over to the dot model, an
     * aligned one stays on the fast path, and both must end equal.
     */
    @ParameterizedTest
    @ValueSource(longs = {5, 6})
    void oamAddressWrittenMidLine(long seed) {
        Random r = new Random(seed);
        for (int trial = 0; trial < 20000; trial++) {
            SpriteEvaluation a = new SpriteEvaluation();
            SpriteEvaluation b = new SpriteEvaluation();
            a.power();
            fill(a, r, r.nextInt(12));
            final int line = 100;
            final int ctrl = r.nextBoolean() ? 0 : 0x20;
            a.writeAddress(r.nextInt(256));
            copy(a, b);
            final int at = 1 + r.nextInt(256);
            final boolean address = r.nextBoolean();
            final int value = r.nextInt(256);
            final int to = at + r.nextInt(257 - at);
            for (int d = 1; d < at; d++) {
                a.dot(d, line, ctrl);
                b.dot(d, line, ctrl);
            }
            for (SpriteEvaluation e : new SpriteEvaluation[] {a, b}) {
                if (address) {
                    e.writeAddress(value);
                } else {
                    e.writeData(true, value);
                }
            }
            for (int d = at; d <= to; d++) {
                a.dot(d, line, ctrl);
            }
            new FastSpriteEvaluation(b).run(at, to, line, ctrl);
            assertEquals(describe(a), describe(b), "trial " + trial + " write at " + at + " run to " + to);
            assertEquals(term(a), term(b));
        }
    }
}
