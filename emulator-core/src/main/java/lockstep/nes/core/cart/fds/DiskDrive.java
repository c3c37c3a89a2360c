package lockstep.nes.core.cart.fds;

import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;

/**
 * The disk drive and the RAM adapter's serial side (NESdev "Family Computer Disk System"):
 * the motor, the head's walk through a side's stream ({@link DiskLayout}), and the byte
 * transfers through $4024 and $4031 with their flag and IRQ.
 * <pre>
 *  $4025  IS1B MRTD  D motor on; T transfer reset (the head is held at the start until it is
 *                    cleared); R 1 read, 0 write; M mirroring (the board's); B CRC control (a write
 *                    puts out the CRC); S start (0: the adapter waits for the next gap); I the
 *                    transfer raises an IRQ
 *  $4030  read: bit 0 timer IRQ (the board's), bit 1 byte transferred, bit 4 CRC error, bit 6 end
 *         of the disk reached
 *  $4031  the byte read; $4024 the byte to write (either access, or reading $4030, clears bit 1 and the IRQ)
 *  $4032  read: bit 0 no disk, bit 1 not ready (not scanning), bit 2 write protected (no disk)
 * </pre>
 * Timing: the head moves one byte per 8 bits at 96.4 kbit/s, a byte every 148.5 CPU cycles on
 * average (the bit clock is accumulated exactly against the NTSC CPU's 1,789,773 Hz). With the
 * motor on and transfer reset clear, the drive spins up for {@link #SPIN_UP_CYCLES} and then scans
 * from the start of the side (the lead-in gap); at the end of the side it raises the end flag and
 * starts over from the beginning. Motor off: the head parks at the start.
 *
 * <p>Reading: with start set, the adapter skips the gap's zeros to the gap-end mark, then hands
 * over every byte (flag, IRQ) and runs the CRC over them; bit 4 of $4030 reads 1 while the CRC of
 * the bytes since the mark is not 0, so it reads 0 right after a good block's two CRC bytes.
 * Writing: with start clear the head writes zeros (a gap); with start set it writes the mark,
 * then the byte in $4024 at each byte time (flag, IRQ), and with CRC control set the CRC's two
 * bytes instead.
 */
final class DiskDrive {
    /** The disk's bit rate. */
    static final int BITS_PER_SECOND = 96400;
    /** The NTSC CPU clock: the disk system is a Famicom's. */
    static final int CPU_HZ = 1789773;
    /** The bit clock's accumulator for one byte: 8 bits at the CPU clock. */
    static final int BYTE_PHASE = 8 * CPU_HZ;
    /**
     * Cycles from the motor's start (transfer reset clear) to the head at the start of the side.
     * NESdev gives no figure; this is a tenth of a second, the lead-in gap then being the wait
     * the hardware's 28,300 bits stand for.
     */
    static final int SPIN_UP_CYCLES = CPU_HZ / 10;
    /** No disk in the drive. */
    static final int EJECTED = -1;

    /** Every side's stream, {@link DiskLayout#SIDE_BYTES} each: the disk as the game wrote it. */
    private final Memory disk;
    private final int sides;

    private int insertedSide;
    /** The side the movie's insert command puts in (FCEUX's "select side" steps it). */
    private int selectedSide;
    private int control;
    private boolean scanning;
    private int spinUp;
    private int head;
    private int phase;
    private boolean gapEnded;
    private int readData;
    private int writeData;
    private boolean transferred;
    private boolean irq;
    private int crc;
    /** CRC bytes put out since CRC control was set (0-2). */
    private int crcOut;
    private boolean endOfHead;

    /** A drive holding {@code disk} ({@code sides} sides) with {@code side} in it ({@link #EJECTED} for none). */
    DiskDrive(Memory disk, int sides, int side) {
        this.disk = disk;
        this.sides = sides;
        insertedSide = side >= 0 && side < sides ? side : EJECTED;
        selectedSide = Math.max(0, insertedSide);
    }

    /** Power on: the drive's electronics; the disk in it (and the one selected) stay. */
    void power() {
        control = 0;
        scanning = false;
        spinUp = 0;
        head = 0;
        phase = 0;
        gapEnded = false;
        readData = 0;
        writeData = 0;
        transferred = false;
        irq = false;
        crc = 0;
        crcOut = 0;
        endOfHead = false;
    }

    int sides() {
        return sides;
    }

    int insertedSide() {
        return insertedSide;
    }

    int selectedSide() {
        return selectedSide;
    }

    /** Puts {@code side} in the drive (the one in it comes out), or ejects with {@link #EJECTED}. */
    void insert(int side) {
        if (side != EJECTED && (side < 0 || side >= sides)) {
            throw new IllegalArgumentException("side " + side + " of " + sides);
        }
        insertedSide = side;
        if (side != EJECTED) {
            selectedSide = side;
        }
        stopScanning();
        head = 0;
        endOfHead = false;
    }

    /** FCEUX's FDS insert/eject command: out if one is in, else the selected side in. */
    void toggleInsert() {
        insert(insertedSide == EJECTED ? selectedSide : EJECTED);
    }

    /** FCEUX's FDS select-side command: the next side, taken only while the drive is empty. */
    void selectNextSide() {
        if (insertedSide == EJECTED && sides > 0) {
            selectedSide = (selectedSide + 1) % sides;
        }
    }

    private void stopScanning() {
        scanning = false;
        spinUp = 0;
        gapEnded = false;
    }

    /** $4025 (the mirroring bit is the board's). */
    void writeControl(int value) {
        control = value & 0xFF;
        if ((value & 0x40) == 0) {
            gapEnded = false;
        }
        if ((value & 0x10) == 0) {
            crcOut = 0;
        }
        irq = false;
        if ((value & 1) == 0) {
            stopScanning();
            head = 0;
        }
    }

    /** $4024. */
    void writeData(int value) {
        writeData = value & 0xFF;
        transferred = false;
        irq = false;
    }

    /** $4031. */
    int readData() {
        transferred = false;
        irq = false;
        return readData;
    }

    /** $4031 without side effects. */
    int peekData() {
        return readData;
    }

    /** The drive's bits of $4030 (1, 4, 6), with {@code acknowledge} clearing the transfer flag and IRQ. */
    int status(boolean acknowledge) {
        final int v = (transferred ? 0x02 : 0) | (gapEnded && crc != 0 ? 0x10 : 0) | (endOfHead ? 0x40 : 0);
        if (acknowledge) {
            transferred = false;
            irq = false;
        }
        return v;
    }

    /** $4032 bits 0-2. */
    int driveStatus() {
        final boolean in = insertedSide != EJECTED;
        return (in ? 0 : 1) | (in && scanning ? 0 : 2) | (in ? 0 : 4);
    }

    boolean irq() {
        return irq;
    }

    /** $4023 bit 0 cleared: the transfer IRQ is acknowledged. */
    void disable() {
        irq = false;
    }

    /** One CPU cycle. */
    void clock() {
        if (insertedSide == EJECTED || (control & 1) == 0) {
            return;
        }
        if (!scanning) {
            if ((control & 2) != 0) {
                return;
            }
            if (++spinUp < SPIN_UP_CYCLES) {
                return;
            }
            scanning = true;
            head = 0;
            phase = 0;
            gapEnded = false;
            endOfHead = false;
            return;
        }
        phase += BITS_PER_SECOND;
        if (phase < BYTE_PHASE) {
            return;
        }
        phase -= BYTE_PHASE;
        byteTime();
    }

    private void byteTime() {
        final int at = insertedSide * DiskLayout.SIDE_BYTES + head;
        final boolean started = (control & 0x40) != 0;
        if ((control & 4) != 0) {
            final int b = disk.read(at);
            if (!started) {
                gapEnded = false;
            } else if (!gapEnded) {
                if (b != 0) {
                    gapEnded = true;
                    crc = DiskLayout.CRC_START;
                }
            } else {
                readData = b;
                crc = DiskLayout.crcStep(crc, b);
                transfer();
            }
        } else {
            final int out;
            if (!started) {
                out = 0;
                gapEnded = false;
            } else if (!gapEnded) {
                out = DiskLayout.MARK;
                gapEnded = true;
                crc = DiskLayout.CRC_START;
                crcOut = 0;
            } else if ((control & 0x10) != 0) {
                out = crcOut == 0 ? crc & 0xFF : crcOut == 1 ? crc >> 8 : 0;
                crcOut = Math.min(2, crcOut + 1);
                transfer();
            } else {
                out = writeData;
                crc = DiskLayout.crcStep(crc, out);
                transfer();
            }
            disk.write(at, out);
        }
        if (++head >= DiskLayout.SIDE_BYTES) {
            // The end of the side: the head returns to the start and the drive spins up again.
            endOfHead = true;
            scanning = false;
            spinUp = 0;
            head = 0;
            gapEnded = false;
        }
    }

    private void transfer() {
        transferred = true;
        if ((control & 0x80) != 0) {
            irq = true;
        }
    }

    void state(StateVisitor s) {
        s.memory(disk);
        insertedSide = s.i32("drive.insertedSide", insertedSide, EJECTED, Math.max(EJECTED, sides - 1));
        selectedSide = s.i32("drive.selectedSide", selectedSide, 0, Math.max(0, sides - 1));
        control = s.u8("drive.control", control);
        scanning = s.bool("drive.scanning", scanning);
        spinUp = s.i32("drive.spinUp", spinUp, 0, SPIN_UP_CYCLES);
        head = s.i32("drive.head", head, 0, DiskLayout.SIDE_BYTES - 1);
        phase = s.i32("drive.phase", phase, 0, BYTE_PHASE - 1);
        gapEnded = s.bool("drive.gapEnded", gapEnded);
        readData = s.u8("drive.readData", readData);
        writeData = s.u8("drive.writeData", writeData);
        transferred = s.bool("drive.transferred", transferred);
        irq = s.bool("drive.irq", irq);
        crc = s.u16("drive.crc", crc);
        crcOut = s.u8("drive.crcOut", crcOut, 2);
        endOfHead = s.bool("drive.endOfHead", endOfHead);
    }
}
