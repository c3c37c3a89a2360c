package lockstep.nes.core.hw;

import java.util.ArrayList;
import java.util.List;
import lockstep.nes.core.Console;
import lockstep.nes.core.apu.ExpansionAudio;

/**
 * Reads a board's sound chip the way a scope on the cartridge's audio pin would: its output
 * every CPU cycle, folded into runs of equal output.
 */
final class ExpansionSound {
    private ExpansionSound() {
    }

    /** A stretch of {@code cycles} CPU cycles with the chip's output at {@code level}. */
    record Run(int level, int cycles) {
    }

    /** Runs {@code program} to its verdict (failing on anything but a pass), then records {@code cycles} cycles. */
    static List<Run> record(HardwareProgram program, int cycles) {
        int verdict = program.run(30);
        if (verdict != HardwareProgram.PASS) {
            throw new AssertionError("program verdict " + verdict);
        }
        Console c = program.console();
        ExpansionAudio chip = c.mapper().expansionAudio();
        if (chip == null) {
            throw new AssertionError(c.mapper().getClass().getSimpleName() + " has no sound chip");
        }
        List<Run> runs = new ArrayList<>();
        int level = chip.outputNow();
        int length = 0;
        for (int i = 0; i < cycles; i++) {
            c.runCycle();
            int now = chip.outputNow();
            if (now != level) {
                runs.add(new Run(level, length));
                level = now;
                length = 0;
            }
            length++;
        }
        runs.add(new Run(level, length));
        return runs;
    }

    /** The whole runs (the first and the last are cut by the recording). */
    static List<Run> whole(List<Run> runs) {
        return runs.size() <= 2 ? List.of() : runs.subList(1, runs.size() - 1);
    }
}
