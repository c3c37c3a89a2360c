package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.util.stream.Stream;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The quiet-cycle bound ({@link Console#quietCycle}, one compare of the master clock) says what
 * the PPU's and the APU's deadlines say ({@link Console#quietCycleAfresh}) at every cycle
 * boundary: after cycles run alone and whole instructions, across catch-ups, register writes
 * that move either deadline, DMC fetches, frame ends and state loads.
 */
class QuietBoundTest {

    static Stream<String> roms() {
        return Stream.of("other/high-hopes.nes", "other/BladeBuster.nes", "other/snow.nes",
                "apu_test/rom_singles/7-dmc_basics.nes", "cpu_interrupts_v2/rom_singles/3-nmi_and_irq.nes",
                "apu_test/rom_singles/4-jitter.nes", "ppu_vbl_nmi/rom_singles/07-nmi_on_timing.nes",
                "ppu_vbl_nmi/rom_singles/04-nmi_control.nes", "mmc3_test_2/rom_singles/4-scanline_timing.nes",
                "sprite_hit_tests_2005.10.05/09.timing_basics.nes");
    }

    @Test
    void demoBoundFollowsTheDeadlines() throws Exception {
        assertBound("demo", DemoRom.cartridge(), 60);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roms")
    void romBoundFollowsTheDeadlines(String rom) throws Exception {
        assertBound(rom, Cartridge.parse(rom, Files.readAllBytes(TestRoms.require(rom))), 60);
    }

    private static void assertBound(String name, Cartridge cart, int frames) throws Exception {
        final Console c = Console.create(cart);
        long quiet = 0;
        long boundaries = 0;
        final Snapshots snapshots = new Snapshots(c);
        byte[] saved = null;
        boolean loaded = false;
        while (c.frameAfterCycle() < frames) {
            // Whole instructions (quiet cycles inside them) and cycles run alone, in turns.
            if ((boundaries & 1) == 0) {
                c.runInstruction();
            } else {
                c.runCycle();
            }
            boundaries++;
            final boolean expected = c.quietCycleAfresh();
            if (c.quietCycle() != expected) {
                fail(name + ": at cycle " + c.cycles() + " the bound says " + !expected + ", the deadlines "
                        + expected);
            }
            if (expected) {
                quiet++;
            }
            if (saved == null && c.frameAfterCycle() == frames / 3) {
                saved = snapshots.save();
            } else if (!loaded && c.frameAfterCycle() == 2 * frames / 3) {
                // Back to an earlier cycle: the clocks are loaded, the bound found again.
                snapshots.load(saved);
                loaded = true;
            }
        }
        assertTrue(loaded, name + ": the run passed its state load");
        assertTrue(quiet > boundaries / 10, name + ": too few quiet boundaries to test (" + quiet + " of " + boundaries + ")");
    }
}
