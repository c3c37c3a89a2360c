package lockstep.nes.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import lockstep.nes.core.hw.HardwareProgram;
import lockstep.nes.state.StateVisitor;
import org.junit.jupiter.api.Test;

/**
 * A DMC DMA halting the CPU on a $4016 read: the halt cycle re-reads $4016 and clocks the
 * controller, unless the DMC's fetch address has the same low 5 bits ($xx16), when the fetch
 * reads that register too and the controller sees one read from the halt to the fetch.
 */
class DmcInputConflictTest {
    /** A reader that sets the named fields and keeps the others. */
    private record Poke(Map<String, Integer> values) implements StateVisitor {
        @Override public boolean isReader() { return true; }
        @Override public void beginSection(String name) { }
        @Override public void endSection() { }
        @Override public boolean bool(String name, boolean value) { return values.containsKey(name) ? values.get(name) != 0 : value; }
        @Override public int u8(String name, int value) { return values.getOrDefault(name, value); }
        @Override public int u16(String name, int value) { return values.getOrDefault(name, value); }
        @Override public int i32(String name, int value) { return value; }
        @Override public long i64(String name, long value) { return value; }
        @Override public void bytes(String name, byte[] array) { }
        @Override public void ints(String name, int[] array) { }
    }

    /** Reads the port 0 shift register out of the description. */
    private static int shift0(Console c) {
        int[] out = new int[1];
        c.controllers().state(new StateVisitor() {
            @Override public boolean isReader() { return false; }
            @Override public void beginSection(String name) { }
            @Override public void endSection() { }
            @Override public boolean bool(String name, boolean value) { return value; }
            @Override public int u8(String name, int value) { return value; }
            @Override public int u16(String name, int value) { return value; }
            @Override public int i32(String name, int value) { return value; }
            @Override public long i64(String name, long value) { return value; }
            @Override public void bytes(String name, byte[] array) { }
            @Override public void ints(String name, int[] array) {
                if (name.equals("shift")) {
                    out[0] = array[0];
                }
            }
        });
        return out[0];
    }

    /** Controller clocks while a DMC DMA fetching {@code dmcAddress} halts an LDA $4016. */
    private static int clocks(int dmcAddress) {
        Console c = HardwareProgram.of("reset:\n  sei\nloop:\n  lda $4016\n  jmp loop").console();
        while (!(c.cpu().address() == 0x4016 && !c.cpu().isWrite())) {
            c.runCycle();
        }
        c.state(new Poke(Map.of("currentAddress", dmcAddress, "bytesRemaining", 1, "bufferEmpty", 1)));
        c.controllers().write(1);
        c.controllers().write(0);
        c.dma().startDmc();
        do {
            c.runCycle();
        } while (!c.cpu().atInstructionStart());
        // Each clock shifts a 1 in at the top of the 8-bit register (no buttons held).
        return Integer.bitCount(shift0(c));
    }

    @Test
    void theHaltCycleClocksTheControllerOnTopOfTheCpusRead() {
        assertEquals(2, clocks(0xC000));
    }

    @Test
    void aFetchFromTheSameRegistersAddressHidesTheHaltCyclesRead() {
        assertEquals(1, clocks(0xC016));
    }
}
