package lockstep.nes.core.cart.fds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.cart.Cartridge;
import org.junit.jupiter.api.Test;

/** The RAM adapter and the drive driven by hand, one CPU cycle at a time. */
class FdsBoardTest {
    static final byte[] DATA = new byte[200];

    static {
        for (int i = 0; i < DATA.length; i++) {
            DATA[i] = (byte) (i * 7 + 3);
        }
    }

    static Cartridge cart(int sides) throws Exception {
        byte[][] s = new byte[sides][];
        for (int i = 0; i < sides; i++) {
            s[i] = TestDisks.side(i, List.of(new TestDisks.File("FILE" + i, 0x6000, 0, DATA)), false);
        }
        return DiskSystem.cartridge("test.fds", TestDisks.fds(true, s), new byte[FdsBios.SIZE], 0);
    }

    private static FdsBoard board(int sides) throws Exception {
        FdsBoard b = new FdsBoard(cart(sides));
        b.power();
        b.busWrite(0x4023, 0x83);
        return b;
    }

    @Test
    void theTimerIrqComesReloadPlusOneCyclesAfterTheEnablingWriteAndRepeats() throws Exception {
        FdsBoard b = board(1);
        b.busWrite(0x4020, 0x34);
        b.busWrite(0x4021, 0x02); // reload $234 = 564
        b.busWrite(0x4022, 0x03); // enabled, repeat
        List<Integer> irqs = new ArrayList<>();
        for (int c = 1; c <= 3 * 565; c++) {
            b.cpuCycle();
            if (b.irq()) {
                irqs.add(c);
                assertEquals(1, b.cpuRead(0x4030) & 1, "bit 0 of $4030: the timer IRQ");
                assertFalse(b.irq(), "reading $4030 acknowledges it");
            }
        }
        assertEquals(List.of(565, 1130, 1695), irqs);
    }

    @Test
    void aOneShotTimerStopsAndDisablingTheDiskRegistersStopsIt() throws Exception {
        FdsBoard b = board(1);
        b.busWrite(0x4020, 10);
        b.busWrite(0x4021, 0);
        b.busWrite(0x4022, 0x02);
        int count = 0;
        for (int c = 0; c < 100; c++) {
            b.cpuCycle();
            if (b.irq()) {
                count++;
                b.cpuRead(0x4030);
            }
        }
        assertEquals(1, count, "without repeat the count ends at the first IRQ");
        b.busWrite(0x4022, 0x03);
        b.busWrite(0x4023, 0x82); // disk registers off: the count stops
        for (int c = 0; c < 100; c++) {
            b.cpuCycle();
        }
        assertFalse(b.irq());
        b.busWrite(0x4022, 0x03); // cannot be enabled while they are off
        for (int c = 0; c < 100; c++) {
            b.cpuCycle();
        }
        assertFalse(b.irq());
    }

    @Test
    void theDriveHandsOverTheFirstBlockAfterSpinUpAndLeadInAtTheDisksBitRate() throws Exception {
        FdsBoard b = board(1);
        assertEquals(0x40 | 2, b.cpuRead(0x4032), "a disk in, not ready before the motor runs");
        b.busWrite(0x4025, 0x27); // motor, transfer reset, read
        for (int c = 0; c < DiskDrive.SPIN_UP_CYCLES * 2; c++) {
            b.cpuCycle();
        }
        assertEquals(0x40 | 2, b.cpuRead(0x4032), "held while transfer reset is set");
        b.busWrite(0x4025, 0xE5); // reset cleared, start, IRQ on transfer
        List<Long> times = new ArrayList<>();
        List<Integer> bytes = new ArrayList<>();
        long cycle = 0;
        boolean ready = false;
        while (bytes.size() < 56) {
            b.cpuCycle();
            cycle++;
            if (!ready && (b.cpuRead(0x4032) & 2) == 0) {
                ready = true;
                assertEquals(DiskDrive.SPIN_UP_CYCLES, cycle, "ready after the spin-up");
            }
            if (b.irq()) {
                times.add(cycle);
                bytes.add(b.cpuRead(0x4031));
                assertFalse(b.irq(), "reading $4031 acknowledges the transfer IRQ");
            }
            assertTrue(cycle < 2_000_000, "no transfer");
        }
        // The mark ends the lead-in gap (byte LEAD_IN); the block code is the byte after it.
        long firstByte = DiskDrive.SPIN_UP_CYCLES + byteTime(DiskLayout.LEAD_IN + 2);
        assertEquals(firstByte, times.get(0));
        assertEquals(1, bytes.get(0));
        assertEquals('*', bytes.get(1));
        for (int i = 1; i < times.size(); i++) {
            long gap = times.get(i) - times.get(i - 1);
            assertTrue(gap == 148 || gap == 149, "byte " + i + " after " + gap + " cycles");
        }
        // 55 byte times at 8 bits / 96.4 kHz of a 1,789,773 Hz clock: 55 * 148.53 cycles.
        assertEquals(55 * 8 * 1789773.0 / 96400, times.get(55) - times.get(0), 1.0);
        assertEquals(0x10, b.cpuRead(0x4030) & 0x10, "the CRC is not 0 in the middle of a block");
        waitByte(b);
        assertEquals(0x10, b.cpuPeek(0x4030) & 0x10, "nor after one CRC byte");
        waitByte(b);
        assertEquals(0, b.cpuRead(0x4030) & 0x10, "after the block's CRC bytes, the CRC is 0");
    }

    /** The cycle at which byte time n (1-based) of a scan falls. */
    private static long byteTime(int n) {
        return (long) Math.ceil((double) n * DiskDrive.BYTE_PHASE / DiskDrive.BITS_PER_SECOND);
    }

    private static int waitByte(FdsBoard b) {
        for (int c = 0; c < 1000; c++) {
            b.cpuCycle();
            if ((b.cpuPeek(0x4030) & 2) != 0) {
                return b.cpuRead(0x4031);
            }
        }
        throw new AssertionError("no byte");
    }

    @Test
    void ejectingAndInsertingBySideAndTheMovieCommands() throws Exception {
        FdsBoard b = board(2);
        assertEquals(0, b.insertedSide());
        b.eject();
        assertEquals(0x40 | 7, b.cpuRead(0x4032), "no disk: not inserted, not ready, protected");
        b.insertSide(1);
        assertEquals(1, b.insertedSide());
        b.movieCommands(FdsBoard.COMMAND_INSERT); // out
        assertEquals(-1, b.insertedSide());
        b.movieCommands(FdsBoard.COMMAND_SELECT_SIDE); // 1B -> 1A (two sides)
        b.movieCommands(FdsBoard.COMMAND_INSERT);
        assertEquals(0, b.insertedSide());
        b.movieCommands(FdsBoard.COMMAND_SELECT_SIDE); // ignored while a disk is in
        b.movieCommands(FdsBoard.COMMAND_INSERT);
        b.movieCommands(FdsBoard.COMMAND_INSERT);
        assertEquals(0, b.insertedSide());
    }

    @Test
    void theRamAndMirroringAndTheBios() throws Exception {
        byte[] bios = new byte[FdsBios.SIZE];
        bios[0x1FFC] = 0x12;
        bios[0x1FFD] = (byte) 0xE3;
        FdsBoard b = new FdsBoard(DiskSystem.cartridge(TestDisks.fds(false,
                TestDisks.side(0, List.of(), false)).length > 0 ? cart(1).disk() : null, bios, 0));
        b.power();
        assertEquals(0x12, b.cpuRead(0xFFFC));
        assertEquals(0xE3, b.cpuRead(0xFFFD));
        b.busWrite(0x6000, 0x55);
        b.busWrite(0xDFFF, 0xAA);
        b.busWrite(0xE000, 0x99); // ROM
        assertEquals(0x55, b.cpuRead(0x6000));
        assertEquals(0xAA, b.cpuRead(0xDFFF));
        assertEquals(0, b.cpuRead(0xE000));
        b.busWrite(0x4025, 0x08);
        assertEquals(-1, b.cpuRead(0x4034) < 0 ? -1 : 0, "nothing at $4034");
        b.busWrite(0x4023, 0x01);
        b.busWrite(0x4025, 0x08);
        // Horizontal: nametables 0 and 1 are one page.
        b.ppuWrite(0x2000, 0x77);
        assertEquals(0x77, b.ppuRead(0x2400));
        b.busWrite(0x4025, 0x00);
        assertEquals(0x77, b.ppuRead(0x2800), "vertical: 0 and 2 are one page");
    }
}
