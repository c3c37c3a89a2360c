package lockstep.nes.bench;

import java.util.concurrent.TimeUnit;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cpu.Cpu;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CPU cycles per second (ops/s = cycles/s) on a program built here that loops over loads,
 * adds, stores, increments, indirect indexed accesses and a jump, with rendering and NMI off:
 * {@link #cpuOnly} drives the 6502 alone over a flat 64 KiB memory; {@link #consoleRenderingOff}
 * runs the whole console (PPU drawing the backdrop, APU, DMA checks) on the same program.
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CpuBenchmark {
    static final int CYCLES = 10_000;

    /** SEI CLD LDX #$FF TXS LDA #0 STA $2000 STA $2001, then the loop at $800D. */
    private static final int[] PROGRAM = {
        0x78, 0xD8, 0xA2, 0xFF, 0x9A, 0xA9, 0x00, 0x8D, 0x00, 0x20, 0x8D, 0x01, 0x20,
        // loop: LDA $00; CLC; ADC #3; STA $00; LDX $01; INX; STX $01; INY; LDA ($02),Y; STA ($04),Y; JMP loop
        0xA5, 0x00, 0x18, 0x69, 0x03, 0x85, 0x00, 0xA6, 0x01, 0xE8, 0x86, 0x01, 0xC8,
        0xB1, 0x02, 0x91, 0x04, 0x4C, 0x0D, 0x80,
    };

    private final byte[] memory = new byte[0x10000];
    private Cpu cpu;
    private Console console;

    /** An NROM-256 image: the program at $8000, all vectors at $8000, blank CHR. */
    static byte[] cartridgeImage() {
        byte[] image = new byte[16 + 32768 + 8192];
        image[0] = 'N';
        image[1] = 'E';
        image[2] = 'S';
        image[3] = 0x1A;
        image[4] = 2;
        image[5] = 1;
        for (int i = 0; i < PROGRAM.length; i++) {
            image[16 + i] = (byte) PROGRAM[i];
        }
        for (int v = 0x7FFA; v < 0x8000; v += 2) {
            image[16 + v] = 0x00;
            image[16 + v + 1] = (byte) 0x80;
        }
        return image;
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        byte[] image = cartridgeImage();
        System.arraycopy(image, 16, memory, 0x8000, 32768);
        cpu = new Cpu();
        cpu.power();
        console = Console.create(Cartridge.parse("cpu-loop.nes", image));
        for (int i = 0; i < 100_000; i++) {
            cpuCycle();
            console.runCycle();
        }
    }

    private void cpuCycle() {
        final Cpu c = cpu;
        final int addr = c.address();
        if (c.isWrite()) {
            memory[addr] = (byte) c.dataOut();
            c.tick(0);
        } else {
            c.tick(memory[addr] & 0xFF);
        }
        c.pollInterrupts(false, false);
    }

    /** The 6502 alone: cycles/s. */
    @Benchmark
    @OperationsPerInvocation(CYCLES)
    public int cpuOnly() {
        for (int i = 0; i < CYCLES; i++) {
            cpuCycle();
        }
        return cpu.pc();
    }

    /** The whole console with rendering off: CPU cycles/s. */
    @Benchmark
    @OperationsPerInvocation(CYCLES)
    public long consoleRenderingOff() {
        final Console c = console;
        for (int i = 0; i < CYCLES; i++) {
            c.runCycle();
        }
        return c.cycles();
    }
}
