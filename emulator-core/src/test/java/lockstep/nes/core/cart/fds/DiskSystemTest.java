package lockstep.nes.core.cart.fds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.state.Memory;
import org.junit.jupiter.api.Test;

/**
 * A whole console with the test BIOS stand-in ({@link TestBios}) and a disk built here: files read
 * and written through the RAM adapter's registers, the transfer and timer IRQs timed to the cycle.
 */
class DiskSystemTest {
    private static final byte[] DATA = FdsBoardTest.DATA;

    private static byte[] image() {
        return TestDisks.fds(true, TestDisks.side(0, List.of(new TestDisks.File("MAIN", 0x6000, 0, DATA)), false));
    }

    @Test
    void theStandInReadsAndWritesFilesThroughTheRegistersWithTheIrqsOnTime() throws Exception {
        byte[] image = image();
        Cartridge cart = DiskSystem.cartridge("test.fds", image, TestBios.image(), 0);
        Console console = Console.create(cart);
        FdsBoard board = (FdsBoard) console.mapper();
        List<Long> transferIrqs = new ArrayList<>();
        long timerWrite = -1;
        long timerIrq = -1;
        boolean irqBefore = false;
        for (long n = 0; n < 4_000_000 && console.peek(0x16) != 3; n++) {
            if (console.cpu().isWrite() && console.cpu().address() == 0x4022) {
                timerWrite = console.cycles() + 1;
            }
            console.runCycle();
            boolean irq = board.irq();
            if (irq && !irqBefore) {
                if (console.peek(0x16) == 2) {
                    if (timerIrq < 0) {
                        timerIrq = console.cycles();
                    }
                } else {
                    transferIrqs.add(console.cycles());
                }
            }
            irqBefore = irq;
        }
        assertEquals(3, console.peek(0x16), "the stand-in ran to its end");
        assertEquals(0, console.peek(0x14), "every block's CRC checked out");

        // The first reading: the blocks as the image has them.
        byte[] info = TestDisks.diskInfo(0);
        for (int i = 0; i < 56; i++) {
            assertEquals(info[i] & 0xFF, console.peek(0x0300 + i), "disk info byte " + i);
        }
        assertEquals(2, console.peek(0x0340));
        assertEquals(1, console.peek(0x0341));
        assertEquals(3, console.peek(0x0350));
        assertEquals(4, console.peek(0x6000));
        for (int i = 0; i < DATA.length; i++) {
            assertEquals(DATA[i] & 0xFF, console.peek(0x6001 + i), "file data byte " + i);
        }
        // The second reading found the file the stand-in wrote, its data taken by the transfer IRQ.
        for (int i = 0; i < 16; i++) {
            assertEquals(TestBios.NEW_HEADER[i] & 0xFF, console.peek(0x0360 + i), "new header byte " + i);
        }
        for (int i = 0; i < TestBios.NEW_DATA.length; i++) {
            assertEquals(TestBios.NEW_DATA[i] & 0xFF, console.peek(0x0400 + i), "new data byte " + i);
        }
        // One IRQ per byte (33 and 2 CRC bytes), a byte every 148 or 149 cycles: 8 bits at 96.4 kHz.
        assertEquals(35, transferIrqs.size(), "transfer IRQs " + transferIrqs);
        for (int i = 1; i < transferIrqs.size(); i++) {
            long gap = transferIrqs.get(i) - transferIrqs.get(i - 1);
            assertTrue(gap == 148 || gap == 149, "transfer IRQ " + i + " after " + gap + " cycles");
        }
        assertEquals(34 * 8 * 1789773.0 / 96400, transferIrqs.get(34) - transferIrqs.get(0), 1.0);
        // The timer's IRQ: reload + 1 cycles after the write that enabled it.
        assertTrue(timerWrite > 0);
        assertEquals(TestBios.TIMER_RELOAD + 1, timerIrq - timerWrite);

        // On the disk: the new blocks right after the file, each with a good CRC.
        Memory disk = board.diskMemory();
        byte[] pristine = board.pristineDisk();
        assertFalse(Arrays.equals(pristine, disk.array()), "the disk was written");
        int end = DiskLayout.LEAD_IN;
        for (int len : new int[] {56, 2, 16, 1 + DATA.length}) {
            end += 1 + len + 2 + DiskLayout.GAP;
        }
        int mark = indexOf(disk.array(), end - DiskLayout.GAP, DiskLayout.MARK);
        assertArrayEquals(TestBios.NEW_HEADER, Arrays.copyOfRange(disk.array(), mark + 1, mark + 17));
        assertEquals(0, DiskLayout.crc(disk.array(), mark + 1, 18));
        int mark2 = indexOf(disk.array(), mark + 19, DiskLayout.MARK);
        assertArrayEquals(TestBios.NEW_DATA, Arrays.copyOfRange(disk.array(), mark2 + 1, mark2 + 34));
        assertEquals(0, DiskLayout.crc(disk.array(), mark2 + 1, 35));
        // The image the disk came from is never written.
        assertArrayEquals(image, cart.disk().bytes());

        // A snapshot carries the disk's changes.
        byte[] snap = new Snapshots(console).save();
        Console other = Console.create(cart);
        new Snapshots(other).load(snap);
        assertArrayEquals(disk.array(), ((FdsBoard) other.mapper()).diskMemory().array());
        assertEquals(new Snapshots(console).stateHash(), new Snapshots(other).stateHash());
    }

    private static int indexOf(byte[] a, int from, int value) {
        for (int i = from; i < a.length; i++) {
            if ((a[i] & 0xFF) == value) {
                return i;
            }
        }
        throw new AssertionError("no " + value + " from " + from);
    }

    @Test
    void theSoundPlaysThroughTheConsolesMixerOnlyWithItsRegistersEnabled() throws Exception {
        String src = """
                .org $E000
                reset:
                  sei
                  ldx #$FF
                  txs
                  lda $E100
                  sta $4023
                  lda #$80
                  sta $4089
                  ldx #0
                fill:
                  lda #63
                  sta $4040,x
                  inx
                  cpx #64
                  bne fill
                  lda #0
                  sta $4089
                  lda #$A0
                  sta $4080
                  lda #$00
                  sta $4082
                  sta $4083
                loop:
                  jmp loop
                nmi:
                  rti
                .org $E100
                  .byte ENABLE
                .org $FFFA
                .word nmi, reset, nmi
                """;
        int[] outputs = new int[2];
        int[] enables = {0x83, 0x81};
        for (int k = 0; k < 2; k++) {
            byte[] bios = lockstep.nes.core.demo.Assembler.assemble(src.replace("ENABLE", Integer.toString(enables[k])))
                    .image(0xE000, 0x2000, 0xEA);
            Console console = Console.create(DiskSystem.cartridge("test.fds", image(), bios, 0));
            console.runFrame();
            console.runFrame();
            outputs[k] = ((FdsBoard) console.mapper()).audio().outputNow();
        }
        // Sample 63 at gain 32, master 2/2: full scale, 2.4 times a 2A03 pulse at volume 15.
        assertEquals(FdsAudio.FULL_LEVEL, outputs[0]);
        assertEquals(0, outputs[1], "with $4023 bit 1 clear the sound registers ignore writes");
    }
}
