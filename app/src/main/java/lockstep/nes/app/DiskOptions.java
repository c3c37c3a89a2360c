package lockstep.nes.app;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/** {@code --fds-bios FILE} and {@code --disk-side SIDE}: how a Famicom Disk System image runs. */
final class DiskOptions {
    @Option(names = "--fds-bios", paramLabel = "FILE",
            description = "the Famicom Disk System BIOS (8 KiB) for a .fds or .qd disk image "
                    + "(default: disksys.rom in the config folder, ~/.config/lockstep)")
    Path bios;

    @Option(names = "--disk-side", paramLabel = "SIDE",
            description = "the disk side in the drive at power-on: 1A (the default), 1B, 2A, ...")
    String side;
}
