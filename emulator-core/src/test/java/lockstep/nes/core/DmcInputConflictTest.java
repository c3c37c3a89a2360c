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

    /** Reads one named u8 or bool field (bools as 0/1) out of a component's description. */
    private static int field(lockstep.nes.state.Digestible component, String wanted) {
        int[] out = {-1};
        component.state(new StateVisitor() {
            @Override public boolean isReader() { return false; }
            @Override public void beginSection(String name) { }
            @Override public void endSection() { }
            @Override public boolean bool(String name, boolean value) {
                if (name.equals(wanted)) {
                    out[0] = value ? 1 : 0;
                }
                return value;
            }
            @Override public int u8(String name, int value) {
                if (name.equals(wanted)) {
                    out[0] = value;
                }
                return value;
            }
            @Override public int u16(String name, int value) { return value; }
            @Override public int i32(String name, int value) { return value; }
            @Override public long i64(String name, long value) { return value; }
            @Override public void bytes(String name, byte[] array) { }
            @Override public void ints(String name, int[] array) { }
        });
        return out[0];
    }

    /**
     * A DMC fetch from {@code dmcAddress} (sample byte $A0 at $C015-$C017, $FF elsewhere) halting
     * {@code LDA $4000}, with the frame IRQ flag set and port 0 holding A; returns the console once
     * the LDA is done.
     */
    private static Console haltedUndrivenRead(int dmcAddress) {
        Console c = HardwareProgram.of(String.join("\n",
                "reset:",
                "  sei",
                "loop:",
                "  lda $4000",
                "  jmp loop",
                ".org $C015",
                ".byte $A0, $A0, $A0")).console();
        c.setButtons(0, lockstep.nes.core.input.Controllers.A);
        c.controllers().write(1);
        c.controllers().write(0);
        while (!(c.cpu().address() == 0x4000 && !c.cpu().isWrite())) {
            c.runCycle();
        }
        c.state(new Poke(Map.of("currentAddress", dmcAddress, "bytesRemaining", 2, "bufferEmpty", 1,
                "frameIrq", 1, "irqInhibit", 0, "clearPending", 0)));
        c.dma().startDmc();
        do {
            c.runCycle();
        } while (!c.cpu().atInstructionStart());
        for (int i = 0; i < 4; i++) {
            c.runCycle(); // the status read's clear lands on the next put-to-get step
        }
        return c;
    }

    @Test
    void aFetchFromA4015IndexClearsTheFrameFlagAndFetchesTheRomByte() {
        Console c = haltedUndrivenRead(0xC015);
        assertEquals(0xA0, field(c.apu(), "buffer"), "the sample byte is the ROM's; $4015 drives only the internal bus");
        assertEquals(0xA0, c.cpu().a(), "the CPU's resumed read of $4000 finds the ROM byte on the external bus");
        assertEquals(0, field(c.apu(), "frameIrq"), "the conflicting status read cleared the frame IRQ flag");
    }

    @Test
    void aFetchFromA4016IndexPutsThePortsDrivenBitsOverTheRomByte() {
        Console c = haltedUndrivenRead(0xC016);
        assertEquals(0xA1, field(c.apu(), "buffer"), "D0-D4 from the port (A held), D5-D7 from the ROM byte $A0");
        assertEquals(0xA1, c.cpu().a(), "the CPU's resumed read returns what the fetch left on the bus");
        assertEquals(0x80, shift0(c), "the port was clocked once: A out, a 1 in at the top");
        assertEquals(1, field(c.apu(), "frameIrq"), "no status read");
    }

    @Test
    void aFetchFromAnotherIndexIsTheRomByteAlone() {
        Console c = haltedUndrivenRead(0xC014);
        assertEquals(0xFF, field(c.apu(), "buffer"));
        assertEquals(0xFF, c.cpu().a());
        assertEquals(0x01, shift0(c), "the port was not clocked: A still first");
        assertEquals(1, field(c.apu(), "frameIrq"));
    }
}
