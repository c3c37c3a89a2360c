package lockstep.nes.ppu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The OAM bus and OAMADDR as {@link SpriteEvaluation} models them, dot by dot. */
class SpriteEvaluationTest {
    private static final int LINE = 100;
    private final SpriteEvaluation e = new SpriteEvaluation();

    @BeforeEach
    void setUp() {
        e.power();
        for (int i = 0; i < 256; i++) {
            e.oam.write(i, 0xF8); // every sprite below the picture
        }
    }

    private void evaluate(int from, int to) {
        for (int d = from; d <= to; d++) {
            e.dot(d, LINE, 0);
        }
    }

    @Test
    void theBusCarriesTheFetchedSecondaryOamByteThenItsFirstByte() {
        for (int i = 0; i < 32; i++) {
            e.secondaryOam.write(i, 0x40 + i);
        }
        // Slot 2 (dots 273-280): Y, tile, attributes, then X four times.
        int[] expected = {0x48, 0x49, 0x4A, 0x4B, 0x4B, 0x4B, 0x4B, 0x4B};
        for (int k = 0; k < 8; k++) {
            assertEquals(expected[k], e.readData(true, 273 + k), "dot " + (273 + k));
        }
        for (int d : new int[] {321, 330, 340, 0}) {
            assertEquals(0x40, e.peekData(true, d), "dot " + d);
            assertEquals(0x40, e.readData(true, d), "dot " + d);
        }
        // Rendering off: OAM at OAMADDR, whatever the dot.
        e.writeAddress(7);
        assertEquals(0xF8, e.readData(false, 330));
    }

    /**
     * Sprites 0 and 5 in range, the other Ys $C0 + index (out of range): once all 64 sprites are
     * seen, odd dots go on reading primary OAM (at n as it steps) while the even dots'
     * writes become reads of secondary OAM at the current slot: slot 2, whose byte 0 holds the
     * last Y written there (sprite 63's, $FF).
     */
    static void twoInRangeOfDistinctYs(SpriteEvaluation e) {
        for (int i = 0; i < 64; i++) {
            e.oam.write(4 * i, 0xC0 + i);
        }
        e.oam.write(0, LINE - 1);
        e.oam.write(20, LINE - 2);
    }

    @Test
    void onceAllSpritesAreSeenEvenDotsReadSecondaryOamAtTheCurrentSlot() {
        twoInRangeOfDistinctYs(e);
        int evenAfterWrap = 0;
        for (int d = 1; d <= 256; d++) {
            final boolean doneBefore = e.oamCopyDone;
            e.dot(d, LINE, 0);
            final int bus = e.readData(true, d);
            if (doneBefore && d >= 66) {
                if ((d & 1) == 0) {
                    evenAfterWrap++;
                    assertEquals(0xFF, bus, "dot " + d + ": secondary OAM slot 2, byte 0");
                } else {
                    assertEquals(e.oam.read(e.oamAddr), bus, "dot " + d + ": primary OAM at n");
                }
            }
        }
        assertEquals(8, e.secondaryOamAddr);
        assertTrue(evenAfterWrap > 20, "the wrap comes well before dot 256: " + evenAfterWrap);
    }

    @Test
    void anOamDataWriteWhileRenderingBumpsTheSpriteIndexAndClearsTheByteIndex() {
        e.writeAddress(0x05);
        e.writeData(true, 0x12);
        assertEquals(0x08, e.oamAddr);
        assertEquals(2, e.spriteAddrH);
        assertEquals(0, e.spriteAddrL);
        assertEquals(0xF8, e.oam.read(0x05), "OAM is not written");
        e.writeData(false, 0x12);
        assertEquals(0x12, e.oam.read(0x08));
        assertEquals(0x09, e.oamAddr);
    }

    @Test
    void theFirstSpriteEvaluatedIsTheOneThatCanHitWhateverItsIndex() {
        e.oam.write(8, LINE - 2); // sprite 2 in range
        e.writeAddress(8);
        evaluate(1, 256);
        assertTrue(e.sprite0InLine);
        assertEquals(1, e.spriteCount);

        e.writeAddress(4); // sprite 1 (out of range) first: sprite 2 is not sprite 0
        evaluate(1, 256);
        assertFalse(e.sprite0InLine);
        assertEquals(1, e.spriteCount);
    }

    @Test
    void aMisalignedStartStaysMisalignedThroughACopyAndRealignsOnAYOutOfRange() {
        // From $01: bytes 1-4 are a sprite in range (byte 1 is its Y); its "X" (byte 4, sprite
        // 1's Y) is in range too, so OAMADDR goes on to $05, still misaligned; byte 5 is out of
        // range: +4 and realigned, $08.
        e.oam.write(1, LINE - 1);
        e.oam.write(2, 0x33);
        e.oam.write(3, 0x02);
        e.oam.write(4, LINE - 3);
        e.writeAddress(1);
        evaluate(1, 72);
        assertEquals(0x05, e.oamAddr, "after the copy");
        assertEquals(LINE - 1, e.secondaryOam.read(0));
        assertEquals(0x33, e.secondaryOam.read(1));
        assertEquals(LINE - 3, e.secondaryOam.read(3));
        evaluate(73, 74);
        assertEquals(0x08, e.oamAddr, "after a Y out of range");
        assertTrue(e.sprite0Added);
    }

    @Test
    void anXOutOfRangeEndsAMisalignedCopyRealigned() {
        // From $02: bytes 2-5 are copied; the X slot's byte (5) is out of range as a Y: OAMADDR
        // is (5 + 1) & $FC = $04.
        e.oam.write(2, LINE);
        e.writeAddress(2);
        evaluate(1, 72);
        assertEquals(0x04, e.oamAddr);
        assertEquals(4, e.secondaryOamAddr);
    }

    @Test
    void anAlignedLineIsUnchangedByTheRealignmentRules() {
        e.oam.write(0, LINE - 1);
        e.oam.write(3, LINE); // an X in range changes nothing when aligned
        e.oam.write(12, LINE - 7);
        evaluate(1, 256);
        assertEquals(2, e.spriteCount);
        assertTrue(e.sprite0InLine);
        assertEquals(LINE - 7, e.secondaryOam.read(4));
    }

    @Test
    void renderingStoppedDuringTheClearOrTheFetchesLeavesRowsToTakeRowZero() {
        for (int i = 0; i < 8; i++) {
            e.oam.write(i, 0x10 + i);
        }
        e.renderingStopped(20); // the clear's address on row 10
        e.renderingStopped(150); // evaluation: nothing
        e.renderingStopped(256 + 16 + 5); // slot 2's last dots: row 2 * 4 + 3
        e.renderingStopped(258); // slot 0, its third dot: row 2
        assertEquals(0xF8, e.oam.read(80), "nothing happens until rendering starts again");
        e.renderingStarted();
        for (int row : new int[] {2, 10, 11}) {
            for (int i = 0; i < 8; i++) {
                assertEquals(0x10 + i, e.oam.read(row * 8 + i), "row " + row);
            }
        }
        assertEquals(0xF8, e.oam.read(12 * 8));
        assertEquals(0xF8, e.oam.read(9 * 8));
        assertEquals(0, e.corruptRows);
    }

    @Test
    void aFrameStartingWithOamAddrAtEightOrMoreCopiesItsRowOverRowZero() {
        for (int i = 0; i < 8; i++) {
            e.oam.write(0x28 + i, 0x30 + i);
        }
        e.writeAddress(0x04);
        e.frameStarts();
        assertEquals(0xF8, e.oam.read(0), "OAMADDR below 8: nothing");
        e.writeAddress(0x2D);
        e.frameStarts();
        for (int i = 0; i < 8; i++) {
            assertEquals(0x30 + i, e.oam.read(i));
        }
    }

    /**
     * Eight misaligned copies from $03 (each Y and X slot in range but the last X slot, at $22):
     * the copy that fills secondary OAM steps sprite and byte index together (+5 to $27) instead
     * of realigning (+1 and AND $FC, to $20), so the overflow search starts at $27.
     */
    @Test
    void anXOutOfRangeThatFillsSecondaryOamStepsByFive() {
        for (int a = 0x03; a <= 0x1F; a += 4) {
            e.oam.write(a, LINE);
        }
        for (int a = 0x06; a <= 0x1E; a += 4) {
            e.oam.write(a, LINE);
        }
        e.oam.write(0x20, LINE); // in range: found if the search started at $20
        e.writeAddress(0x03);
        evaluate(1, 128);
        assertEquals(0x20, e.secondaryOamAddr, "eight sprites copied by dot 128");
        assertEquals(0x27, e.oamAddr);
        evaluate(129, 256);
        assertFalse(e.spriteOverflow, "no byte from $27 on is in range");

        // With $27 in range, the search finds it on the first step: the flag is set on dot 130.
        e.power();
        for (int i = 0; i < 256; i++) {
            e.oam.write(i, 0xF8);
        }
        for (int a = 0x03; a <= 0x1F; a += 4) {
            e.oam.write(a, LINE);
        }
        for (int a = 0x06; a <= 0x1E; a += 4) {
            e.oam.write(a, LINE);
        }
        e.oam.write(0x27, LINE);
        e.writeAddress(0x03);
        evaluate(1, 129);
        assertFalse(e.spriteOverflow);
        evaluate(130, 130);
        assertTrue(e.spriteOverflow, "set on the even dot that compares the byte read on dot 129");
    }
}
