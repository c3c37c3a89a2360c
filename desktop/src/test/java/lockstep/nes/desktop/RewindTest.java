package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.Random;

import lockstep.nes.core.Console;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.Test;

class RewindTest {
    /**
     * An engine whose whole state is a frame counter and a 16 KiB block that each frame stirs:
     * cheap enough to play minutes of frames in a test.
     */
    static final class FakeEngine implements Rewind.Engine {
        long frame;
        final byte[] ram = new byte[16 * 1024];
        final byte[] buf = new byte[8 + ram.length];

        @Override
        public int save() {
            ByteBuffer.wrap(buf).putLong(frame).put(ram);
            return buf.length;
        }

        @Override
        public byte[] saved() {
            return buf;
        }

        @Override
        public void load(byte[] data, int length) {
            assertEquals(buf.length, length);
            ByteBuffer b = ByteBuffer.wrap(data, 0, length);
            frame = b.getLong();
            b.get(ram);
        }

        @Override
        public void replayFrame(int buttons0, int buttons1) {
            ram[(int) (frame % ram.length)] ^= (byte) (buttons0 + 1);
            ram[(int) ((frame * 7) % ram.length)] += (byte) buttons1;
            frame++;
        }
    }

    @Test
    void holdingRewindGoesBackMoreThanSixtySeconds() {
        Rewind r = Rewind.standard();
        FakeEngine e = new FakeEngine();
        Random rnd = new Random(1);
        int frames = (int) (100 * Rewind.NES_FPS); // 100 s of play: the ring has wrapped
        byte[][] ramAt = new byte[frames + 1][];
        long t = 0;
        for (int i = 0; i < frames; i++) {
            ramAt[i] = e.ram.clone();
            int b0 = rnd.nextInt(256);
            int b1 = rnd.nextInt(256);
            r.beforeFrame(t, e, b0, b1);
            e.replayFrame(b0, b1);
            t++;
        }
        assertTrue(r.secondsBack(t) >= 60, "buffer holds " + r.secondsBack(t) + " s");
        assertTrue(r.secondsBack(t) < 100, "a bounded ring");
        long start = t;
        int steps = 0;
        long next;
        while ((next = r.stepBack(t, e)) >= 0) {
            assertTrue(next < t, "each step goes back");
            t = next;
            steps++;
            assertEquals(t, e.frame, "the engine is at the frame the rewind says");
            assertArrayEquals(ramAt[(int) t], e.ram, "state at frame " + t + " is the one played then");
        }
        assertTrue((start - t) / Rewind.NES_FPS >= 60, "went back " + (start - t) / Rewind.NES_FPS + " s");
        assertTrue(steps >= 60 * 60 / 4, steps + " steps of four frames");
        assertEquals(-1, r.stepBack(t, e), "the start of the buffer stays put");
        assertEquals(t, e.frame);
    }

    @Test
    void aRewoundConsoleIsExactlyTheConsoleOfThatFrame() throws Exception {
        Console c = Console.create(DemoRom.cartridge());
        Snapshots s = new Snapshots(c);
        Rewind.Engine e = new Rewind.Engine() {
            @Override public int save() { return s.saveToBuffer(); }
            @Override public byte[] saved() { return s.buffer(); }
            @Override public void load(byte[] d, int n) {
                try {
                    s.load(d, n, "cp");
                } catch (Exception ex) {
                    throw new AssertionError(ex);
                }
            }
            @Override public void replayFrame(int b0, int b1) {
                c.setButtons(0, b0);
                c.setButtons(1, b1);
                c.runFrame();
            }
        };
        Rewind r = new Rewind(4, 10);
        String[] hashAt = new String[41];
        long t = 0;
        for (int i = 0; i < 40; i++) {
            hashAt[i] = s.stateHash();
            int b0 = (i / 5) % 2 == 0 ? 0x08 : 0x80;
            r.beforeFrame(t, e, b0, 0);
            e.replayFrame(b0, 0);
            t++;
        }
        t = r.stepBack(t, e);
        assertEquals(37, t);
        assertEquals(hashAt[37], s.stateHash());
        t = r.stepBack(t, e);
        assertEquals(33, t);
        assertEquals(hashAt[33], s.stateHash());
        assertTrue(r.bytes() < r.size() * 8_000L, "checkpoints are compressed: " + r.bytes() + " bytes for " + r.size());
    }
}
