package lockstep.nes.core.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ControllersTest {

    private static int readBits(Controllers c, int port, int count) {
        int v = 0;
        for (int i = 0; i < count; i++) {
            v |= (c.read(port, 0) & 1) << i;
        }
        return v;
    }

    @Test
    void strobeLatchesAndReadsShiftOutAFirstThenOnes() {
        Controllers c = new Controllers();
        c.power();
        c.setButtons(0, Controllers.A | Controllers.START | Controllers.RIGHT);
        c.setButtons(1, Controllers.B | Controllers.UP);
        c.write(1);
        c.write(0);
        assertEquals(0x89, readBits(c, 0, 8));
        assertEquals(0x12, readBits(c, 1, 8));
        assertEquals(0xFF, readBits(c, 0, 8), "an official controller returns 1s after 8 reads");
    }

    @Test
    void buttonsChangedAfterTheStrobeAreNotSeenUntilTheNextOne() {
        Controllers c = new Controllers();
        c.power();
        c.setButtons(0, Controllers.A);
        c.write(1);
        c.write(0);
        c.setButtons(0, Controllers.B);
        assertEquals(0x01, readBits(c, 0, 8));
    }

    @Test
    void whileStrobeIsHighEveryReadReturnsA() {
        Controllers c = new Controllers();
        c.power();
        c.setButtons(0, Controllers.A | Controllers.B);
        c.write(1);
        for (int i = 0; i < 10; i++) {
            assertEquals(1, c.read(0, 0) & 1);
        }
        c.setButtons(0, Controllers.B);
        assertEquals(0, c.read(0, 0) & 1);
    }

    @Test
    void upperBitsAreOpenBusAndD1ToD4Zero() {
        Controllers c = new Controllers();
        c.power();
        c.setButtons(0, Controllers.A);
        c.write(1);
        c.write(0);
        assertEquals(0xE1, c.read(0, 0xFF));
        assertEquals(0x40, c.read(0, 0x5E));
    }

    @Test
    void fourScoreReportsFourPlayersAndItsSignature() {
        Controllers c = new Controllers();
        c.power();
        c.setFourScore(true);
        c.setButtons(0, 0x11);
        c.setButtons(1, 0x22);
        c.setButtons(2, 0x44);
        c.setButtons(3, 0x88);
        c.write(1);
        c.write(0);
        assertEquals(0x08_44_11, readBits(c, 0, 24));
        assertEquals(0x04_88_22, readBits(c, 1, 24));
        assertEquals(0, readBits(c, 0, 8));
    }

    @Test
    void zapperReportsTriggerAndLight() {
        boolean[] lit = {false};
        Controllers c = new Controllers((x, y) -> lit[0] && x == 100 && y == 50);
        c.power();
        c.setZapperPort(1);
        c.setZapper(100, 50, false);
        assertEquals(0x08, c.read(1, 0), "no light, trigger released");
        lit[0] = true;
        assertEquals(0x00, c.read(1, 0), "light seen");
        c.setZapper(100, 50, true);
        assertEquals(0xF0, c.read(1, 0xE0), "trigger pulled, open bus on top");
        c.setButtons(0, Controllers.A);
        c.write(1);
        c.write(0);
        assertEquals(1, c.read(0, 0) & 1, "port 0 keeps its controller");
    }

    @Test
    void zapperSeesABrightPixelOnlyAfterTheBeamDrewIt() {
        short[] frame = new short[256 * 240];
        frame[(50 << 8) | 100] = 0x30; // white
        frame[(50 << 8) | 101] = 0x0F; // black
        assertEquals(false, Zapper.senses(frame, 49, 200, 100, 50), "not drawn yet");
        assertEquals(false, Zapper.senses(frame, 50, 100, 100, 50), "being drawn");
        assertEquals(true, Zapper.senses(frame, 50, 102, 100, 50));
        assertEquals(true, Zapper.senses(frame, 70, 0, 100, 50));
        assertEquals(false, Zapper.senses(frame, 71, 0, 100, 50), "faded");
        assertEquals(false, Zapper.senses(frame, 60, 0, 101, 50), "black");
        assertEquals(false, Zapper.senses(frame, 60, 0, -1, 50), "off screen");
        assertEquals(true, Zapper.bright(0x20));
        assertEquals(false, Zapper.bright(0x0D));
        assertEquals(false, Zapper.bright(0x1A));
    }
    // Cycles are numbered as the console counts them while they run: odd ones are get cycles (ApuPhase).
    @Test
    void aWriteOnAGetCycleReachesThePortsAtOnce() {
        Controllers c = new Controllers();
        c.power();
        c.setButtons(0, Controllers.A);
        c.write(1, 11);
        c.write(0, 12);
        assertEquals(1, c.read(0, 0, 13) & 1, "reloaded by the strobe written on get cycle 11");
    }

    @Test
    void aWriteOnAPutCycleWaitsForTheNextGetToPutTransition() {
        Controllers c = new Controllers();
        c.power();
        c.setButtons(0, Controllers.A | Controllers.SELECT);
        c.write(1, 11);
        c.write(0, 13);
        assertEquals(1, c.read(0, 0, 21) & 1); // A
        c.write(1, 22); // put cycle: pending
        assertEquals(0, c.read(0, 0, 23) & 1, "not yet at the ports: B");
        assertEquals(1, c.peek(0, 0, 24) & 1, "arrived as get cycle 23 ended");
        assertEquals(1, c.read(0, 0, 24) & 1, "reloaded: A");
    }

    @Test
    void aPutCycleWriteReplacedOnTheNextGetCycleNeverReachesThePorts() {
        Controllers c = new Controllers();
        c.power();
        c.setButtons(0, Controllers.A);
        c.write(1, 11);
        c.write(0, 13);
        assertEquals(1, c.read(0, 0, 21) & 1); // A
        c.write(1, 22);
        c.write(0, 23);
        assertEquals(0, c.read(0, 0, 31) & 1, "no reload: B");
    }

    @Test
    void getAndPutAreOneDefinitionForTheStrobeAndTheDma() {
        // A $41 on a get cycle then $40 on the put after it: the pin rises and the port reloads.
        assertTrue(lockstep.nes.core.ApuPhase.isGet(101));
        assertFalse(lockstep.nes.core.ApuPhase.isGet(102));
        Controllers c = new Controllers();
        c.power();
        c.setButtons(0, Controllers.A);
        c.write(1, 90);
        c.write(0, 91);
        c.read(0, 0, 95);
        c.write(1, 101);
        c.write(0, 102);
        assertEquals(1, c.read(0, 0, 103) & 1, "a $41 on get cycle 101 strobes");
        c.write(0, 105);
        c.read(0, 0, 106);
        c.read(0, 0, 107);
        c.write(1, 110);
        c.write(0, 111);
        assertEquals(0, c.read(0, 0, 112) & 1, "a $41 on put cycle 110 is overwritten before it reaches the pin");
    }

    @Test
    void aReadDrivesBits0To4OnlyBits5To7AreTheLastExternalBusValue() {
        Controllers c = new Controllers();
        c.power();
        c.setButtons(0, Controllers.A);
        c.write(1);
        c.write(0);
        assertEquals(0x41, c.read(0, 0x40), "after LDA $4016: the operand's high byte on top");
        assertEquals(0xE0, c.read(0, 0xFF), "after a DMC fetch of $FF: its bits 5-7, bits 1-4 driven low");
        assertEquals(0x00, c.peek(0, 0x1E) & 0x1E, "bits 1-4 are driven (low), never the open bus");
    }
}
