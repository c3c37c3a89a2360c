package lockstep.nes.app;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import lockstep.nes.core.Nestest;
import lockstep.nes.core.TextFile;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code lockstep nestest ROM LOG}: nestest in automation mode against its golden log. */
@Command(name = "nestest", mixinStandardHelpOptions = true,
        description = "Run nestest from $C000 and compare every instruction with the golden log.",
        footerHeading = "%nExamples:%n", footer = {"  lockstep nestest nestest.nes nestest.log", "  lockstep nestest roms/other/nestest.nes roms/other/nestest.log"})
public final class NestestCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "ROM", description = "nestest.nes")
    Path rom;

    @Mixin
    RomEntryOption archive;

    @Parameters(index = "1", paramLabel = "LOG", description = "nestest.log (the golden log)")
    Path log;

    @Override
    public Integer call() {
        List<String> lines;
        Cartridge cart;
        try {
            cart = RomArg.load(rom, archive.entry);
        } catch (RomFormatException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        try {
            lines = TextFile.read(log).lines().toList();
        } catch (IOException e) {
            System.err.println("error: " + e.getMessage());
            return 2;
        }
        if (lines.stream().allMatch(String::isBlank)) {
            // Nothing to compare against is no pass: "0/0 lines match" would read as one.
            System.err.println("error: " + log + ": empty (the golden log has no lines to compare)");
            return 2;
        }
        Nestest.Result r;
        try {
            r = Nestest.run(cart, lines);
        } catch (RomFormatException | IllegalArgumentException e) {
            System.err.println("error: " + log + ": " + e.getMessage());
            return 2;
        }
        if (r.expected() != null) {
            System.out.println("first mismatch at line " + (r.matched() + 1) + ":");
            System.out.println("  expected: " + r.expected());
            System.out.println("  actual:   " + r.actual());
        }
        System.out.println("nestest: " + r.matched() + "/" + r.total() + " lines match");
        return r.passed() ? 0 : 1;
    }
}
