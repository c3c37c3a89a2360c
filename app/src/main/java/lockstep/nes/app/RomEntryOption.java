package lockstep.nes.app;

import picocli.CommandLine.Option;

/** {@code --entry NAME}: which .nes file of a .zip archive holding several a command loads. */
final class RomEntryOption {
    @Option(names = "--entry", paramLabel = "NAME",
            description = "the .nes file to load from a .zip archive that holds several (its name inside the archive)")
    String entry;
}
