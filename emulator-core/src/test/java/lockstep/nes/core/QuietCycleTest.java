package lockstep.nes.core;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateDiff;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Quiet cycles (the whole-instruction bus's RAM and ROM accesses made as clocks and access only,
 * before the PPU's and APU's deadlines, with the CPU's poll reusing the lines it last saw) equal
 * whole cycles. The risk is at the deadlines: a PPU event (vertical blank and /NMI, the frame
 * counter) or an /IRQ change landing inside an instruction must be caught up on its cycle and
 * polled there. {@link Console#runInstruction} (unlike {@code runFrame}) lets the events fall
 * inside instructions in every cycle position, and games with /NMI on and idle loops make the
 * decisive poll (the second-to-last cycle's) meet them; an NMI taken one instruction late, or a
 * poll one cycle late, shows as a different cycle count, opcode or register set at the next
 * instruction boundary. Compared after every instruction (those values) and every frame (the
 * whole machine's digest), over hundreds of frames.
 */
class QuietCycleTest {

    static Stream<String> roms() {
        return Stream.of("spritecans-2011/spritecans.nes", "other/BladeBuster.nes", "other/high-hopes.nes",
                "cpu_interrupts_v2/rom_singles/3-nmi_and_irq.nes", "mmc3_test_2/rom_singles/4-scanline_timing.nes");
    }

    @Test
    void demoEqualsCycleByCycle() throws RomFormatException {
        assertSame("demo", DemoRom.cartridge(), 400);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roms")
    void romEqualsCycleByCycle(String rom) throws IOException, RomFormatException {
        assertSame(rom, Cartridge.parse(rom, Files.readAllBytes(TestRoms.require(rom))), 250);
    }

    private static void assertSame(String name, Cartridge cart, int frames) throws RomFormatException {
        Console fast = Console.create(cart);
        Console slow = Console.create(cart);
        CycleDigest fastDigest = new CycleDigest(fast);
        CycleDigest slowDigest = new CycleDigest(slow);
        long frame = fast.frameAfterCycle();
        long instructions = 0;
        while (fast.frameAfterCycle() < frames) {
            fast.runInstruction();
            while (slow.cycles() < fast.cycles()) {
                slow.runCycle();
            }
            instructions++;
            if (fast.cpu().registers() != slow.cpu().registers() || fast.cpu().opcode() != slow.cpu().opcode()
                    || slow.cycles() != fast.cycles()) {
                fail(name + ": instruction " + instructions + " ending at cycle " + fast.cycles() + " (pc $"
                        + Integer.toHexString(fast.cpu().instructionPc()) + ") differs\n  " + String.join("\n  ", diff(fast, slow)));
            }
            if (fast.frameAfterCycle() != frame) {
                frame = fast.frameAfterCycle();
                assertEquals(slowDigest.digest(), fastDigest.digest(), () -> name + ": frame " + fast.frameAfterCycle()
                        + " differs\n  " + String.join("\n  ", diff(fast, slow)));
            }
        }
    }

    /** The first 20 lines of the state diff of {@code a} and {@code b}. */
    static List<String> diff(Console a, Console b) {
        List<String> d = StateDiff.diff(Describer.describe(a), Describer.describe(b));
        return d.size() > 20 ? d.subList(0, 20) : d;
    }
}
