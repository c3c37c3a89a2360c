package lockstep.nes.core.digest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import lockstep.nes.state.Memory;
import org.junit.jupiter.api.Test;

/**
 * {@link Memory#fill} sets the incremental hash to the fill value times the sum of the weights
 * instead of rehashing: it must equal the hash recomputed from the bytes, for every value, on
 * memories of every size, after any writes before it.
 */
class MemoryFillTest {

    @Test
    void aFilledMemoryHashesAsItsBytes() {
        Random r = new Random(3);
        for (int size : new int[] {1, 32, 256, 2048, 8192}) {
            Memory m = new Memory("m" + size, Memory.SECONDARY_OAM + size, size);
            for (int value = 0; value < 256; value++) {
                for (int k = 0; k < 4; k++) {
                    m.write(r.nextInt(size), r.nextInt(256));
                }
                m.fill(value);
                assertEquals(m.recomputeHash(), m.hash(), "size " + size + " filled with " + value);
                m.write(r.nextInt(size), r.nextInt(256));
                assertEquals(m.recomputeHash(), m.hash(), "size " + size + " written after a fill of " + value);
            }
        }
    }
}
