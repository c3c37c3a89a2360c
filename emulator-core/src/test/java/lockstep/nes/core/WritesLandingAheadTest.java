package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Random;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.ppu.Region;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * PPU register writes that change only t, w and the open-bus latch land before a lazily stepped
 * PPU catches up to them ({@code Ppu.writeLandsAhead}). A console that takes them so must equal
 * one whose PPU is stepped with the CPU, at every cycle: what the CPU side sees every cycle, the
 * whole machine at random points and every frame, and the picture.
 */
class WritesLandingAheadTest {

    /**
     * A program that writes $2000, $2005 and $2006 at random dots of rendering lines (values
     * that keep ctrl and fine X as they are most of the time, as raster code does), reads
     * $2002 to reset w now and then, and sometimes switches rendering or reads $2007.
     */
    @ParameterizedTest(name = "seed {0}, {1}")
    @CsvSource({"1, NTSC", "2, NTSC", "3, NTSC", "4, NTSC", "5, PAL", "6, DENDY"})
    void randomScrollWritesEqualThePpuSteppedWithTheCpu(int seed, Region region) throws RomFormatException {
        Random r = new Random(seed);
        Cartridge cart = Cartridge.builder("scroll-writes-" + seed + ".nes", program(r), randomBytes(r, 8192), 0).build()
                .withRegion(region);
        Console lazy = Console.create(cart);
        Console eager = Console.createEager(cart);
        runAlike(cart.name(), eager, lazy, 40, r);
        assertTrue(lazy.writesLandedAhead() > 5_000,
                "only " + lazy.writesLandedAhead() + " writes landed ahead of the PPU (the test would prove little)");
        assertTrue(eager.writesLandedAhead() == 0, "the eagerly stepped PPU took writes ahead");
    }

    /** Demos that move the scroll mid-frame on a plain board. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"other/RasterDemo.NES", "other/SimpleParallaxDemo.nes", "other/nescafe.nes"})
    void scrollingDemosEqualThePpuSteppedWithTheCpu(String rom) throws IOException, RomFormatException {
        Cartridge cart = Cartridge.parse(rom, Files.readAllBytes(TestRoms.require(rom)));
        runAlike(rom, Console.createEager(cart), Console.create(cart), 120, new Random(rom.hashCode()));
    }

    private static void runAlike(String name, Console eager, Console lazy, int frames, Random r) {
        CycleDigest eagerDigest = new CycleDigest(eager);
        CycleDigest lazyDigest = new CycleDigest(lazy);
        long nextFull = 1 + r.nextInt(4000);
        for (int f = 0; f < frames; f++) {
            long frame = eager.ppu().frameCount();
            while (eager.ppu().frameCount() == frame) {
                eager.runCycle();
                lazy.runCycle();
                if (LazyBoardPpuTest.cpuSide(eager) != LazyBoardPpuTest.cpuSide(lazy)) {
                    fail(name + ": the CPU side differs at cycle " + eager.cycles() + " (frame " + f + ")");
                }
                if (eager.cycles() >= nextFull) {
                    nextFull = eager.cycles() + 1 + r.nextInt(4000);
                    LazyBoardPpuTest.compareAll(name, eager, lazy, eagerDigest, lazyDigest);
                }
            }
            LazyBoardPpuTest.compareAll(name, eager, lazy, eagerDigest, lazyDigest);
            assertArrayEquals(eager.ppu().frame(), lazy.ppu().frame(), name + ": the pictures differ in frame " + f);
        }
    }

    private static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** 32 KiB of PRG: set-up, then random register traffic in a loop. */
    private static byte[] program(Random r) {
        ByteArrayOutputStream c = new ByteArrayOutputStream();
        emit(c, 0x78, 0xD8, 0xA2, 0xFF, 0x9A);                     // SEI; CLD; LDX #$FF; TXS
        emit(c, 0xA9, 0x00, 0x8D, 0x00, 0x20, 0x8D, 0x01, 0x20);   // rendering and NMI off
        for (int i = 0; i < 2; i++) {
            emit(c, 0x2C, 0x02, 0x20, 0x10, 0xFB);                 // BIT $2002; BPL (vblank)
        }
        for (int i = 0; i < 256; i++) {                            // sprites at random in page 2
            emit(c, 0xA9, r.nextInt(256), 0x8D, i, 0x02);
        }
        emit(c, 0xA9, 0x02, 0x8D, 0x14, 0x40);                     // OAM DMA
        emit(c, 0xA9, 0x3F, 0x8D, 0x06, 0x20, 0xA9, 0x00, 0x8D, 0x06, 0x20);
        for (int i = 0; i < 32; i++) {                             // palette
            emit(c, 0xA9, r.nextInt(64), 0x8D, 0x07, 0x20);
        }
        emit(c, 0xA9, 0x20, 0x8D, 0x06, 0x20, 0xA9, 0x00, 0x8D, 0x06, 0x20);
        for (int i = 0; i < 512; i++) {                            // half the first nametable
            emit(c, 0xA9, r.nextInt(256), 0x8D, 0x07, 0x20);
        }
        emit(c, 0xA9, 0x08, 0x8D, 0x00, 0x20, 0xA9, 0x1E, 0x8D, 0x01, 0x20); // sprites at $1000; render
        final int loop = 0x8000 + c.size();
        while (c.size() < 0x7F00) {
            int kind = r.nextInt(100);
            if (kind < 30) {
                for (int n = r.nextInt(12); n > 0; n--) {
                    emit(c, 0xEA);                                 // NOP
                }
            } else if (kind < 50) {
                // Mostly the ctrl already there; now and then another table, size or nametable.
                int[] values = {0x08, 0x08, 0x08, 0x08, 0x09, 0x0A, 0x18, 0x28};
                store(c, values[r.nextInt(values.length)], 0x2000);
            } else if (kind < 75) {
                // Fine X 0 most of the time.
                store(c, r.nextInt(4) == 0 ? r.nextInt(256) : r.nextInt(32) << 3, 0x2005);
            } else if (kind < 93) {
                store(c, r.nextInt(256), 0x2006);
            } else if (kind < 97) {
                emit(c, 0x2C, 0x02, 0x20);                         // BIT $2002: w cleared
            } else if (kind < 99) {
                emit(c, 0xAD, 0x07, 0x20);                         // LDA $2007
            } else {
                store(c, r.nextInt(3) == 0 ? 0x00 : 0x1E, 0x2001);
            }
        }
        emit(c, 0x4C, loop & 0xFF, loop >> 8);                      // JMP loop
        byte[] prg = new byte[32768];
        byte[] code = c.toByteArray();
        System.arraycopy(code, 0, prg, 0, code.length);
        prg[0x7F80] = 0x40;                                         // RTI for NMI and IRQ
        int[] vectors = {0xFF80, 0x8000, 0xFF80};
        for (int v = 0; v < 3; v++) {
            prg[0x7FFA + 2 * v] = (byte) vectors[v];
            prg[0x7FFB + 2 * v] = (byte) (vectors[v] >> 8);
        }
        return prg;
    }

    private static void store(ByteArrayOutputStream c, int value, int addr) {
        emit(c, 0xA9, value, 0x8D, addr & 0xFF, addr >> 8);        // LDA #value; STA addr
    }

    private static void emit(ByteArrayOutputStream c, int... bytes) {
        for (int b : bytes) {
            c.write(b);
        }
    }
}
