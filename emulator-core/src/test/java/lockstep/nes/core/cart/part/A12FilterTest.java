package lockstep.nes.core.cart.part;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class A12FilterTest {
    /**
     * A run of dips told at once counts the rises, and leaves the filter as, the same dips told
     * one by one: for the 4-dot dips rendering makes (which never count) and for longer ones.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 4, 6, 7})
    void aRunOfDipsIsTheDipsOneByOne(int dots) {
        Random r = new Random(dots);
        for (int trial = 0; trial < 2000; trial++) {
            A12Filter run = new A12Filter();
            A12Filter single = new A12Filter();
            long start = r.nextInt(1 << 20);
            run.power(0);
            single.power(0);
            // Some history: A12 high after a fall at a random time before the run.
            long fall = start - r.nextInt(400);
            run.edge(0, fall);
            single.edge(0, fall);
            long rise = fall + 4L * r.nextInt(60);
            run.edge(0x1000, rise);
            single.edge(0x1000, rise);
            int count = 1 + r.nextInt(34);
            long last = Math.max(start, rise + 4) + 32L * (count - 1);
            int counted = 0;
            for (int i = count - 1; i >= 0; i--) {
                if (single.dip(last - 32L * i, dots)) {
                    counted++;
                }
            }
            assertEquals(counted, run.dips(last, dots, count), "rises counted, trial " + trial);
            assertEquals(single.lowAt(), run.lowAt(), "when A12 last went low, trial " + trial);
            long later = last + 4L * r.nextInt(40);
            assertEquals(single.edge(0, later), run.edge(0, later));
            long next = later + 4L * r.nextInt(40);
            assertEquals(single.edge(0x1000, next), run.edge(0x1000, next), "the rise after, trial " + trial);
        }
    }
}
