package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import lockstep.nes.state.DigestTerm;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The PPU's cached digest term after each register write: an OAMDATA write adds its difference
 * to a valid cache of the event part; $2000, $2005 and $2006 writes add theirs and keep the
 * rendering part; the others drop both; and the term must stay the one the description defines,
 * with the PPU at any dot of the frame (vblank and NMI output included), the writes weighted
 * toward the scroll registers that split-screen games write hundreds of times a frame.
 */
class RegisterWriteDigestTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void everyWriteLeavesTheDescribedTerm(long seed) {
        Ppu ppu = new Ppu(new FakeBus());
        ppu.power();
        // Past the power-up period, in which $2000, $2001, $2005 and $2006 writes are ignored.
        for (int i = 0; i < 2 * 341 * 262; i++) {
            ppu.step();
        }
        Random r = new Random(seed);
        for (int i = 0; i < 4000; i++) {
            final int reg = r.nextInt(4) == 0 ? r.nextInt(8) : new int[] {0, 4, 5, 6}[r.nextInt(4)];
            final int value = r.nextInt(256);
            ppu.digestTerm(); // the cache valid before the write
            ppu.writeRegister(reg, value);
            final long fast = ppu.digestTerm(); // first: a visit of the description drops the cache
            assertEquals(DigestTerm.of(ppu), fast, "seed " + seed + " write " + i + " of $"
                    + Integer.toHexString(value) + " to $200" + reg + " at " + ppu.scanline() + "," + ppu.dot());
            for (int k = r.nextInt(4) == 0 ? r.nextInt(3000) : r.nextInt(12); k > 0; k--) {
                ppu.step();
            }
        }
    }
}
