package lockstep.nes.app;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.SnapshotFile;
import lockstep.nes.state.StateDiff;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lockstep state dump|diff}: read snapshot files without an engine. */
@Command(name = "state", mixinStandardHelpOptions = true,
        description = "Inspect snapshot files (written by headless --save-state).",
        subcommands = {StateCommand.Dump.class, StateCommand.Diff.class},
        footerHeading = "%nExamples:%n", footer = {"  lockstep state dump s.lss", "  lockstep state diff a.lss b.lss"})
public final class StateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Without a subcommand: the usage, on stderr, and exit code 2 (bad input). */
    @Override
    public Integer call() {
        return Main.usageError(spec);
    }

    @Command(name = "dump", mixinStandardHelpOptions = true,
            description = "Print a snapshot as JSON (byte arrays as hex strings).",
            footerHeading = "%nExamples:%n", footer = {"  lockstep state dump s.lss", "  lockstep state dump s.lss > s.json"})
    static final class Dump implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE", description = "a snapshot (headless --save-state)")
        Path file;

        @Override
        public Integer call() {
            try {
                System.out.println(SnapshotFile.read(file).json());
                return 0;
            } catch (SnapshotException e) {
                System.err.println("error: " + e.getMessage());
                return 2;
            }
        }
    }

    @Command(name = "diff", mixinStandardHelpOptions = true,
            description = {"List the component.field values that differ between two snapshots.",
                "Registers in hexadecimal, arrays as index ranges with both values. Exit 0 if equal, 1 if they differ."},
            footerHeading = "%nExamples:%n", footer = {"  lockstep state diff a.lss b.lss", "  lockstep state diff before.lss after.lss | grep cpu."})
    static final class Diff implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "A", description = "the first snapshot")
        Path a;

        @Parameters(index = "1", paramLabel = "B", description = "the second snapshot")
        Path b;

        @Override
        public Integer call() {
            SnapshotFile fa;
            SnapshotFile fb;
            try {
                fa = SnapshotFile.read(a);
                fb = SnapshotFile.read(b);
            } catch (SnapshotException e) {
                System.err.println("error: " + e.getMessage());
                return 2;
            }
            if (!fa.romHex().equals(fb.romHex())) {
                System.out.println("rom: " + fa.romHex() + " -> " + fb.romHex());
            }
            List<String> lines = StateDiff.diff(fa.entries(), fb.entries());
            lines.forEach(System.out::println);
            boolean same = lines.isEmpty() && fa.romHex().equals(fb.romHex());
            System.out.println(same ? "snapshots are identical" : lines.size() + " differing fields");
            return same ? 0 : 1;
        }
    }
}
