package lockstep.nes.core.hw;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.demo.Assembler;
import lockstep.nes.core.demo.Ines;
import lockstep.nes.ppu.Region;

/**
 * A small 6502 program, written with the project's assembler, run on a whole console the way
 * hardware test ROMs report: the program stores its verdict at {@link #RESULT} ($00F0): 0 while
 * running, 1 for pass, any other value is the program's failure code. Further bytes the
 * program records (read-back values, counts) are read with {@link #ram(int)}.
 *
 * <p>The source is assembled into a 32 KiB NROM-256 image at $8000 with vertical mirroring.
 * It must define {@code reset}; {@code nmi} and {@code irq} are used for their vectors when
 * defined (otherwise the vector points at an RTI). {@link #COMMON} holds routines most
 * programs need, appended after the program's own code.
 */
public final class HardwareProgram {
    /** Zero-page address of the program's verdict. */
    public static final int RESULT = 0xF0;
    /** Verdict value of a passing program. */
    public static final int PASS = 1;

    /**
     * Routines shared by test programs (assembled after the program's source):
     * {@code wait_vblank} returns just after the vblank flag was seen set (the flag read clears it);
     * {@code pass} and {@code fail_a} store the verdict and spin forever.
     */
    public static final String COMMON = String.join("\n",
            "wait_vblank:",
            "  bit $2002",
            "wv_loop:",
            "  bit $2002",
            "  bpl wv_loop",
            "  rts",
            "pass:",
            "  lda #1",
            "  sta $F0",
            "pass_spin:",
            "  jmp pass_spin",
            "fail_a:",
            "  sta $F0",
            "fail_spin:",
            "  jmp fail_spin",
            "default_rti:",
            "  rti",
            "");

    private final Assembler.Program program;
    private final Console console;

    private HardwareProgram(Assembler.Program program, Console console) {
        this.program = program;
        this.console = console;
    }

    /** Assembles {@code source} (with {@link #COMMON}) over blank CHR-ROM. */
    public static HardwareProgram of(String source) {
        return of(source, new byte[0x2000]);
    }

    /** Assembles {@code source} (with {@link #COMMON}) over blank CHR-ROM, run on {@code region}'s console. */
    public static HardwareProgram of(String source, Region region) {
        return of(source, new byte[0x2000], region);
    }

    /** Assembles {@code source} (with {@link #COMMON}) with the given 8 KiB of CHR-ROM. */
    public static HardwareProgram of(String source, byte[] chr) {
        return of(source, chr, Region.NTSC);
    }

    /** As {@link #of(String, byte[])}, on {@code region}'s console. */
    public static HardwareProgram of(String source, byte[] chr, Region region) {
        Assembler.Program p = Assembler.assemble(".org $8000\n" + source + "\n" + COMMON
                + "\n.org $FFFA\n.word " + vector(source, "nmi") + ", reset, " + vector(source, "irq") + "\n");
        byte[] prg = p.image(0x8000, 0x8000, 0xFF);
        try {
            Cartridge cart = Cartridge.parse("hardware-program.nes", Ines.nrom(prg, chr, true)).withRegion(region);
            return new HardwareProgram(p, Console.create(cart));
        } catch (RomFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Assembles {@code source} (with {@link #COMMON}) into 32 KiB of PRG-ROM on board
     * {@code mapper} (NES 2.0 submapper {@code submapper}) with 8 KiB of PRG-RAM and CHR-RAM.
     * At power every board here maps the first 8 KiB at $8000 and the last at $E000: the
     * program must fit in $8000-$9FFF.
     */
    public static HardwareProgram onBoard(String source, int mapper, int submapper) {
        Assembler.Program p = Assembler.assemble(".org $8000\n" + source + "\n" + COMMON
                + "\n.org $FFFA\n.word " + vector(source, "nmi") + ", reset, " + vector(source, "irq") + "\n");
        if (p.symbol("default_rti") >= 0xA000) {
            throw new IllegalArgumentException("the program does not fit in $8000-$9FFF");
        }
        byte[] prg = p.image(0x8000, 0x8000, 0xFF);
        try {
            Cartridge cart = Cartridge.builder("hardware-program.nes", prg, new byte[0], mapper)
                    .submapper(submapper).build();
            return new HardwareProgram(p, Console.create(cart));
        } catch (RomFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Assembles {@code source} (with {@link #COMMON}) for an MMC5 board (mapper 5, 32 KiB PRG,
     * the given 8 KiB of CHR-ROM). The MMC5 powers on with only $E000-$FFFF in ROM, so the reset
     * vector points at a stub there that selects one 32 KiB bank ($5100 = 0) and jumps to
     * {@code reset}.
     */
    public static HardwareProgram mmc5(String source, byte[] chr) {
        Assembler.Program p = Assembler.assemble(".org $8000\n" + source + "\n" + COMMON
                + "\n.org $FF00\nmmc5_boot:\n  lda #0\n  sta $5100\n  jmp reset\n"
                + "\n.org $FFFA\n.word " + vector(source, "nmi") + ", mmc5_boot, " + vector(source, "irq") + "\n");
        byte[] image = Ines.nrom(p.image(0x8000, 0x8000, 0xFF), chr, true);
        image[6] = (byte) (0x50 | (image[6] & 0x0F));
        try {
            return new HardwareProgram(p, Console.create(Cartridge.parse("hardware-program-mmc5.nes", image)));
        } catch (RomFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String vector(String source, String label) {
        return source.contains(label + ":") ? label : "default_rti";
    }

    /** Runs until the program stores a verdict or {@code maxFrames} frames pass; returns it (0: none). */
    public int run(int maxFrames) {
        long endFrame = console.frame() + maxFrames;
        while (console.frame() < endFrame) {
            console.runInstruction();
            int verdict = console.ram().read(RESULT);
            if (verdict != 0) {
                return verdict;
            }
        }
        return 0;
    }

    /** A byte of CPU RAM ($0000-$07FF). */
    public int ram(int address) {
        return console.ram().read(address & 0x7FF) & 0xFF;
    }

    /** The value of a label or constant of the program. */
    public int symbol(String name) {
        return program.symbol(name);
    }

    public Console console() {
        return console;
    }
}
