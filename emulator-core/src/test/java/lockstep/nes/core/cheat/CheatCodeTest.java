package lockstep.nes.core.cheat;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** Decoding Game Genie and raw codes, and refusing bad ones in one line naming them. */
class CheatCodeTest {

    @Test
    void sixLetterCodeDecodesToThePublishedAddressAndValue() throws CheatException {
        // GOSSIP: the worked example of the Game Genie decoding documents (address $D1DD, value $14).
        Cheat c = Cheat.parse("GOSSIP");
        assertEquals(0xD1DD, c.address());
        assertEquals(0x14, c.value());
        assertEquals(Cheat.NO_COMPARE, c.compare());
        assertEquals("GOSSIP", c.code());
        assertEquals("D1DD:14", c.raw());
    }

    @Test
    void eightLetterCodeDecodesToThePublishedAddressValueAndCompare() throws CheatException {
        // ZEXPYGLA: the 8-letter worked example (address $94A7, value $02, compare $03).
        Cheat c = Cheat.parse("zexpygla");
        assertEquals(0x94A7, c.address());
        assertEquals(0x02, c.value());
        assertEquals(0x03, c.compare());
        assertEquals("ZEXPYGLA", c.code());
    }

    @Test
    void everyLetterPositionReachesItsBits() throws CheatException {
        // A single N (15) among As (0) sets exactly the bits its position carries.
        assertEquals(new Cheat(0x8000, 0x87, Cheat.NO_COMPARE, "NAAAAA"), Cheat.parse("NAAAAA"));
        assertEquals(0x8080, Cheat.parse("ANAAAA").address());
        assertEquals(0x70, Cheat.parse("ANAAAA").value());
        assertEquals(0x8070, Cheat.parse("AANAAA").address());
        assertEquals(0xF008, Cheat.parse("AAANAA").address());
        assertEquals(0x8807, Cheat.parse("AAAANA").address());
        assertEquals(0x8700, Cheat.parse("AAAAAN").address());
        assertEquals(0x08, Cheat.parse("AAAAAN").value());
        Cheat eight = Cheat.parse("AAAAANAA");
        assertEquals(0x08, eight.compare());
        assertEquals(0x00, eight.value());
        assertEquals(0x87, Cheat.parse("AAAAAANA").compare());
        assertEquals(0x70, Cheat.parse("AAAAAAAN").compare());
        assertEquals(0x08, Cheat.parse("AAAAAAAN").value());
    }

    @Test
    void rawCodesTakeHexWithOrWithoutDollarSigns() throws CheatException {
        assertEquals(new Cheat(0x0075, 0x09, Cheat.NO_COMPARE, "0075:09"), Cheat.parse("0075:09"));
        Cheat c = Cheat.parse("$c123:a9:$85");
        assertEquals(0xC123, c.address());
        assertEquals(0xA9, c.value());
        assertEquals(0x85, c.compare());
        assertEquals("C123:A9:85", c.raw());
    }

    @Test
    void badCodesAreRefusedInOneLineNamingThem() {
        String[] bad = {"GOSSI", "GOSSIPQ", "GOSSIB", "12345:00", "0075:100", "0075:", "zz:01", "0075:01:02:03", "", "HELLO!"};
        for (String code : bad) {
            CheatException e = assertThrows(CheatException.class, () -> Cheat.parse(code), code);
            assertTrue(e.getMessage().startsWith("cheat '" + code.strip() + "'"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
