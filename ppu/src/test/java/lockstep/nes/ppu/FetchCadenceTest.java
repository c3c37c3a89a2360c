package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FetchCadenceTest {
    private static final int NT = 0x21;
    private static final int AT = 0xAA;
    private static final int PATTERN_LOW = 0x3C;
    private static final int PATTERN_HIGH = 0xC3;
    private static final int EMPTY_SLOT_LOW = 0x5A;
    private static final int EMPTY_SLOT_HIGH = 0xA5;

    private PpuDriver p;

    /** Every fetch kind reads its own byte: nametables, attributes, tile $21's planes, tile $FF's. */
    @BeforeEach
    void setUp() {
        p = new PpuDriver();
        final int[] mem = p.bus.mem;
        for (int base = 0x2000; base < 0x3000; base += 0x400) {
            for (int i = 0; i < 0x3C0; i++) {
                mem[base + i] = NT;
            }
            for (int i = 0x3C0; i < 0x400; i++) {
                mem[base + i] = AT;
            }
        }
        for (int i = 0; i < 8; i++) {
            mem[0x0210 + i] = PATTERN_LOW;
            mem[0x0218 + i] = PATTERN_HIGH;
        }
        mem[0x0FF0] = EMPTY_SLOT_LOW;
        mem[0x0FF8] = EMPTY_SLOT_HIGH;
        p.runTo(261, 2);
        p.runTo(241, 10);
        for (int i = 0; i < 256; i++) {
            p.ppu.oam().write(i, 0xF0);
        }
        p.setAddress(0);
        p.ppu.writeRegister(1, 0x18);
        p.finishFrame();
    }

    /**
     * A $2007 read serviced after dot {@code dot} of line 10; returns what the data state
     * machine put in the buffer on its read dot, {@link DataPort#READ_DOTS} dots later. The
     * buffer and v keep their values until that dot.
     */
    private int bufferAfterReadAt(int dot) {
        p.runTo(10, dot);
        final int buffer = p.ppu.peekRegister(7);
        p.ppu.readRegister(7);
        final int v = p.ppu.vramAddress();
        for (int i = 1; i < DataPort.READ_DOTS; i++) {
            p.ppu.step();
        }
        assertEquals(buffer, p.ppu.peekRegister(7), "the buffer waits for the read dot");
        p.ppu.step();
        assertFalse(v == p.ppu.vramAddress(), "the read steps v");
        return p.ppu.peekRegister(7);
    }

    @Test
    void theBufferTakesTheFetchReadingOnTheStateMachinesReadDot() {
        assertEquals(PATTERN_LOW, bufferAfterReadAt(97), "pattern low from 101 reads on 102");
        assertEquals(PATTERN_HIGH, bufferAfterReadAt(107), "pattern high from 111 reads on 112");
        assertEquals(NT, bufferAfterReadAt(117), "nametable from 121 reads on 122");
        assertEquals(AT, bufferAfterReadAt(127), "attribute from 131 reads on 132");
    }

    @Test
    void duringSpriteFetchesAndTheUnusedNametableFetches() {
        assertEquals(NT, bufferAfterReadAt(255), "slot 0's second garbage nametable fetch reads on 260");
        assertEquals(EMPTY_SLOT_LOW, bufferAfterReadAt(265), "slot 1's low plane (tile $FF) reads on 270");
        assertEquals(EMPTY_SLOT_HIGH, bufferAfterReadAt(275), "slot 2's high plane reads on 280");
        assertEquals(NT, bufferAfterReadAt(333), "the unused fetch of 337 reads on 338");
        assertEquals(NT, bufferAfterReadAt(336), "the unused fetch of 339, on the lines until dot 0");
    }

    @Test
    void theNametableFetchOfDot257UsesVFromBeforeTheHorizontalCopy() {
        // Line 10 after dot 256: coarse X 2 of the second nametable (34 steps from scroll 0),
        // coarse Y 1: $2422. The copy on 257 brings v back to $2020 for the fetch of 259.
        p.bus.mem[0x2422] = 0x5C;
        assertEquals(0x5C, bufferAfterReadAt(253), "slot 0's first garbage nametable fetch reads on 258");
    }

    @Test
    void outsideRenderingTheBufferReadsV() {
        p.runTo(241, 20);
        p.bus.mem[0x2345] = 0x99;
        p.setAddress(0x2345);
        p.ppu.readRegister(7);
        assertEquals(0x99, p.ppu.peekRegister(7));
        assertEquals(0x2346, p.ppu.vramAddress());
    }

    @Test
    void aDataReadOnANametableFetchsAddressDotLatchesTheLinesByte() {
        // The state machine reads on dot 233 (serviced after 228), the address dot of the
        // nametable fetch of coarse X 31 (line 10: $203F). The latch passes the byte on the
        // lines, the pattern-high byte read on 232: the read takes $20C3 (a nametable byte), and
        // the fetch reads with that byte as its low address and A8-A13 of the stepped v, which
        // wrapped into the next nametable: $2421.
        p.runTo(10, 228);
        p.ppu.readRegister(7);
        p.runTo(10, 232);
        final int before = p.ppu.vramAddress();
        assertEquals(0x203F, 0x2000 | (before & 0x0FFF), "v as the read's dot starts");
        final int from = p.bus.readCount;
        p.ppu.step();
        assertEquals(2, p.bus.readCount - from, "the state machine's read and the fetch's");
        assertEquals(0x20C3, p.bus.reads[from & 4095]);
        assertEquals(0x2421, p.bus.reads[(from + 1) & 4095]);
        assertEquals(NT, p.ppu.peekRegister(7));
        assertEquals(0x0400, p.ppu.vramAddress() & 0x0C1F, "coarse X 0 of the next nametable");
        assertEquals(((before >> 12) + 1) & 7, (p.ppu.vramAddress() >> 12) & 7, "and a Y step");
    }

    /** The addresses read from a $2006 = $2540 written on dots first and first + 1 of line 10 to dot 110. */
    private int[] readsAfterAddressWrittenAt(int first) {
        p.bus.mem[0x252F] = 0x77;
        p.runTo(10, first);
        p.ppu.writeRegister(6, 0x25);
        p.ppu.step();
        p.ppu.writeRegister(6, 0x40);
        final int from = p.bus.readCount;
        p.runTo(10, 110);
        final int[] reads = new int[p.bus.readCount - from];
        for (int i = 0; i < reads.length; i++) {
            reads[i] = p.bus.reads[(from + i) & 4095];
        }
        return reads;
    }

    @Test
    void aV2006AddressLandingBetweenAleAndReadMakesAHybridAddress() {
        // The second write on dot 102 lands in v at the end of dot 105, the ALE dot of the
        // nametable fetch at $202F: the read on 106 takes A8-A13 from $2540 and the low byte
        // from $202F, and the pattern fetch that follows uses the tile found there.
        boolean hybrid = false;
        boolean tile = false;
        for (int a : readsAfterAddressWrittenAt(101)) {
            hybrid |= a == 0x252F;
            tile |= hybrid && a == 0x0772;
        }
        assertTrue(hybrid, "the nametable read at the hybrid address");
        assertTrue(tile, "the pattern fetch of the tile read there (fine Y 2 of the new v)");
    }

    @Test
    void aV2006AddressLandingOnAReadDotChangesNoFetch() {
        for (int a : readsAfterAddressWrittenAt(102)) {
            assertFalse(a == 0x252F);
        }
    }
}
