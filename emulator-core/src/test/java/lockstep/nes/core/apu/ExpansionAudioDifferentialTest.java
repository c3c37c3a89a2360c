package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateEntry;
import org.junit.jupiter.api.Test;

/**
 * Every board's sound chip, stepped in the APU's lazy catch-up, equals the same chip stepped
 * every cycle ({@link Apu#setEager}): random programs write the chip's registers (and the
 * 2A03's) with delays of every length between, and the two engines' audio samples, whole state
 * and digest agree wherever they are compared, across snapshots too.
 */
class ExpansionAudioDifferentialTest {
    /** A board with a chip: its mapper number and random register writes (address, value). */
    private interface Writes {
        int[] next(Random r);
    }

    private static byte[] program(Random r, Writes writes) {
        byte[] prg = new byte[0x8000];
        Arrays.fill(prg, (byte) 0xEA);
        int pc = 0;
        int loop = 0;
        while (pc < 0x1F00) {
            int k = r.nextInt(10);
            if (k < 6) {
                int[] w = writes.next(r);
                prg[pc++] = (byte) 0xA9; // LDA #v
                prg[pc++] = (byte) w[1];
                prg[pc++] = (byte) 0x8D; // STA abs
                prg[pc++] = (byte) w[0];
                prg[pc++] = (byte) (w[0] >> 8);
            } else if (k < 7) {
                int reg = new int[] {0x00, 0x02, 0x03, 0x08, 0x0B, 0x15}[r.nextInt(6)];
                prg[pc++] = (byte) 0xA9;
                prg[pc++] = (byte) (reg == 0x15 ? 0x0F : r.nextInt(256));
                prg[pc++] = (byte) 0x8D;
                prg[pc++] = (byte) reg;
                prg[pc++] = 0x40;
            } else {
                // A delay of 1-255 loops (5 cycles each), sometimes 256 times that.
                boolean longer = r.nextInt(4) == 0;
                if (longer) {
                    prg[pc++] = (byte) 0xA0; // LDY #m
                    prg[pc++] = (byte) (1 + r.nextInt(8));
                }
                prg[pc++] = (byte) 0xA2; // LDX #n
                prg[pc++] = (byte) (longer ? 0 : 1 + r.nextInt(255));
                prg[pc++] = (byte) 0xCA; // DEX
                prg[pc++] = (byte) 0xD0; // BNE -3
                prg[pc++] = (byte) 0xFD;
                if (longer) {
                    prg[pc++] = (byte) 0x88; // DEY
                    prg[pc++] = (byte) 0xD0; // BNE -8
                    prg[pc++] = (byte) 0xF8;
                }
            }
        }
        prg[pc++] = 0x4C; // JMP $8000
        prg[pc++] = (byte) loop;
        prg[pc] = (byte) 0x80;
        prg[0x7FFC] = 0x00;
        prg[0x7FFD] = (byte) 0x80;
        prg[0x7FFA] = 0x00;
        prg[0x7FFB] = (byte) 0x80;
        prg[0x7FFE] = 0x00;
        prg[0x7FFF] = (byte) 0x80;
        return prg;
    }

    private static Console console(byte[] prg, int mapper) {
        try {
            return Console.create(Cartridge.builder("expansion-audio", prg.clone(), new byte[0], mapper).build());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static final short[] A = new short[1 << 16];
    private static final short[] B = new short[1 << 16];

    private static void assertSame(Console lazy, Console ref, String where) {
        List<StateEntry> a = Describer.describe(lazy);
        List<StateEntry> b = Describer.describe(ref);
        assertEquals(b.size(), a.size(), where);
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).path().equals(b.get(i).path()) || !a.get(i).sameValue(b.get(i))) {
                fail(where + ": state differs at " + b.get(i).path() + ": lazy " + a.get(i).scalarText()
                        + " vs eager " + b.get(i).scalarText());
            }
        }
        assertEquals(ref.digestTerm(), lazy.digestTerm(), where + ": digest");
        int n = lazy.apu().audio().read(A, 0, A.length);
        assertEquals(ref.apu().audio().read(B, 0, B.length), n, where + ": sample count");
        for (int i = 0; i < n; i++) {
            if (A[i] != B[i]) {
                fail(where + ": sample " + i + ": lazy " + A[i] + " vs eager " + B[i]);
            }
        }
    }

    /** Returns how many distinct chip outputs were seen (the chip must really sound). */
    private static int run(int mapper, Writes writes, long seed, int cycles) throws Exception {
        Random r = new Random(seed);
        byte[] prg = program(r, writes);
        Console lazy = console(prg, mapper);
        Console ref = console(prg, mapper);
        ref.apu().setEager(true);
        java.util.Set<Integer> outputs = new java.util.TreeSet<>();
        long observeAt = 0;
        for (int i = 0; i < cycles; i++) {
            lazy.runCycle();
            ref.runCycle();
            if ((i & 63) == 0) {
                outputs.add(ref.mapper().expansionAudio().outputNow()); // the reference is caught up anyway
            }
            if (ref.cycles() >= observeAt) {
                String where = "mapper " + mapper + " seed " + seed + " cycle " + ref.cycles();
                assertSame(lazy, ref, where);
                observeAt = ref.cycles() + 1 + (r.nextInt(4) == 0 ? r.nextInt(20) : r.nextInt(30_000));
                if (r.nextInt(40) == 0) {
                    byte[] data = new Snapshots(lazy).save();
                    lazy = console(prg, mapper);
                    new Snapshots(lazy).load(data);
                    ref = console(prg, mapper);
                    new Snapshots(ref).load(data);
                    ref.apu().setEager(true);
                }
            }
        }
        assertSame(lazy, ref, "mapper " + mapper + " seed " + seed + " end");
        return outputs.size();
    }

    private static void check(int mapper, Writes writes) throws Exception {
        int outputs = 0;
        for (long seed = 1; seed <= 4; seed++) {
            outputs += run(mapper, writes, seed, 300_000);
        }
        assertTrue(outputs > 20, "distinct chip outputs seen: " + outputs);
    }

    @Test
    void vrc6() throws Exception {
        for (int mapper : new int[] {24, 26}) {
            check(mapper, r -> {
                int channel = r.nextInt(3);
                int reg = r.nextInt(channel == 0 ? 4 : 3);
                int v = r.nextInt(256);
                if (reg == 2) {
                    v = (v & 0x0F) | (r.nextInt(5) == 0 ? 0 : 0x80);
                } else if (reg == 3) {
                    v = r.nextInt(3) == 0 ? v & 7 : 0;
                }
                return new int[] {0x9000 + channel * 0x1000 + reg, v};
            });
        }
    }

    @Test
    void namco163() throws Exception {
        check(19, r -> {
            int k = r.nextInt(10);
            if (k == 0) {
                return new int[] {0xE000, r.nextInt(8) == 0 ? 0x40 : 0}; // sound off/on, PRG bank 0 kept
            }
            if (k < 3) {
                return new int[] {0xF800, r.nextInt(256)};
            }
            int v = r.nextInt(256);
            return new int[] {0x4800, r.nextInt(3) == 0 ? v | 0x0F : v};
        });
    }

    @Test
    void vrc7() throws Exception {
        check(85, r -> {
            int k = r.nextInt(20);
            if (k == 0) {
                return new int[] {0xE000, r.nextInt(6) == 0 ? 0x40 : 0}; // sound held in reset or not
            }
            if (k < 9) {
                int reg = new int[] {0, 1, 2, 3, 4, 5, 6, 7, 0x10, 0x20, 0x30}[r.nextInt(11)];
                return new int[] {0x9010, reg + (reg >= 0x10 ? r.nextInt(6) : 0)};
            }
            int v = r.nextInt(256);
            return new int[] {0x9030, r.nextBoolean() ? v | 0x10 : v};
        });
    }

    @Test
    void sunsoft5b() throws Exception {
        check(69, r -> {
            if (r.nextBoolean()) {
                return new int[] {0xC000, r.nextInt(20) == 0 ? 0x10 | r.nextInt(16) : r.nextInt(14)};
            }
            int v = r.nextInt(256);
            return new int[] {0xE000, r.nextInt(3) == 0 ? v & 0x1F : v & 0x3};
        });
    }
}
