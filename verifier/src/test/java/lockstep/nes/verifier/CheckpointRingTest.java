package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint ring stores checkpoints as compressed reverse deltas: every kept checkpoint
 * comes back byte-for-byte (and loads to its recorded state hash), eviction and truncation keep
 * that true, and its memory per minute of play stays within issue #8's 1 MB at the verifier's
 * cadence and at the rewind cadence.
 */
class CheckpointRingTest {
    /** NTSC frames per minute. */
    private static final double FRAMES_PER_MINUTE = 60 * CheckpointRing.NTSC_FPS;

    static Console demo() throws Exception {
        return Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
    }

    /** Runs {@code frames} frames with seeded input, adding a checkpoint every {@code every}. */
    private static List<byte[]> run(Console c, CheckpointRing ring, int frames, int every, List<String> hashes) {
        Snapshots s = new Snapshots(c);
        Random r = new Random(5);
        List<byte[]> added = new ArrayList<>();
        for (int f = 1; f <= frames; f++) {
            if (f % 30 == 0) {
                c.setButtons(0, r.nextInt(256));
            }
            c.runFrame();
            if (f % every == 0) {
                byte[] snap = s.save();
                String hash = s.stateHash();
                added.add(snap);
                hashes.add(hash);
                assertTrue(ring.add(new CheckpointRing.Checkpoint(f, c.cycles(), 1, snap, hash)));
            }
        }
        return added;
    }

    @Test
    void everyKeptCheckpointComesBackExactlyAndLoadsToItsHash() throws Exception {
        Console c = demo();
        CheckpointRing ring = new CheckpointRing(40, 8, new EpochFence());
        List<String> hashes = new ArrayList<>();
        List<byte[]> added = run(c, ring, 400, 4, hashes);
        assertEquals(100, added.size());
        assertEquals(40, ring.size());
        Console fresh = demo();
        Snapshots fs = new Snapshots(fresh);
        for (int i = 0; i < ring.size(); i++) {
            CheckpointRing.Checkpoint cp = ring.get(i);
            int k = added.size() - ring.size() + i;
            assertArrayEquals(added.get(k), cp.snapshot(), "checkpoint " + i + " (frame " + cp.frame() + ")");
            fs.load(cp.snapshot());
            assertEquals(hashes.get(k), fs.stateHash(), "state hash after restoring frame " + cp.frame());
            assertEquals(cp.hash(), fs.stateHash());
        }
        assertTrue(ring.bytes() < ring.rawBytes() / 4,
                "packed " + ring.bytes() + " bytes vs " + ring.rawBytes() + " raw");
        // Nearest checkpoint before a frame (rewind), and the newest.
        assertEquals(396, ring.atOrBeforeFrame(398).frame());
        assertEquals(400, ring.latest().frame());
        assertArrayEquals(added.get(99), ring.latest().snapshot());
        assertNull(ring.atOrBeforeFrame(100));
    }

    @Test
    void truncatingAfterARewindKeepsTheRestExact() throws Exception {
        Console c = demo();
        CheckpointRing ring = new CheckpointRing(50, 6, new EpochFence());
        List<String> hashes = new ArrayList<>();
        List<byte[]> added = run(c, ring, 160, 4, hashes);
        assertEquals(40, ring.size());
        assertEquals(15, ring.truncateAfterFrame(101)); // keeps frames 4..100
        assertEquals(25, ring.size());
        assertEquals(100, ring.latest().frame());
        for (int i = 0; i < ring.size(); i++) {
            assertArrayEquals(added.get(i), ring.get(i).snapshot(), "checkpoint " + i);
        }
        // Play resumes from the rewind point: new checkpoints chain onto the kept ones.
        Console d = demo();
        Snapshots ds = new Snapshots(d);
        ds.load(ring.latest().snapshot());
        List<byte[]> more = run(d, ring, 20, 4, new ArrayList<>());
        assertEquals(30, ring.size());
        for (int i = 0; i < 25; i++) {
            assertArrayEquals(added.get(i), ring.get(i).snapshot(), "kept checkpoint " + i);
        }
        for (int i = 0; i < 5; i++) {
            assertArrayEquals(more.get(i), ring.get(25 + i).snapshot(), "new checkpoint " + i);
        }
        assertEquals(30, ring.truncateAfterFrame(-1));
        assertEquals(0, ring.size());
        assertNull(ring.latest());
        assertEquals(0, ring.bytes());
    }

    @Test
    void snapshotsOfDifferentLengthsAndCapacityOneWork() {
        EpochFence fence = new EpochFence();
        CheckpointRing ring = new CheckpointRing(3, 4, fence);
        byte[][] snaps = {{1, 2, 3}, {1, 2, 3, 4}, {9, 2, 3, 4}, {}, {7}};
        for (int i = 0; i < snaps.length; i++) {
            ring.add(new CheckpointRing.Checkpoint(i, i, 1, snaps[i], "h" + i));
        }
        assertEquals(3, ring.size());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(snaps[2 + i], ring.get(i).snapshot());
        }
        CheckpointRing one = new CheckpointRing(1, fence);
        one.add(new CheckpointRing.Checkpoint(0, 0, 1, new byte[] {1}, "a"));
        one.add(new CheckpointRing.Checkpoint(1, 1, 1, new byte[] {2}, "b"));
        assertEquals(1, one.size());
        assertArrayEquals(new byte[] {2}, one.latest().snapshot());
        assertEquals(1, one.bytes());
    }

    /**
     * Memory per minute of play (issue #8: at most 1 MB): measured over 900 frames of each ROM
     * (after 600 frames of warm-up) and scaled to a minute, at the verifier's default cadence (every 60 frames) and at the
     * rewind cadence (every 4 frames, 900 checkpoints a minute).
     */
    @Test
    void memoryPerMinuteOfPlayIsWithinOneMegabyte() throws Exception {
        List<Cartridge> carts = new ArrayList<>();
        carts.add(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        String roms = System.getProperty("lockstep.roms", System.getenv("LOCKSTEP_ROMS"));
        if (roms != null) {
            Path p = Path.of(roms, "nes-test-roms", "spritecans-2011", "spritecans.nes");
            if (Files.isRegularFile(p)) {
                carts.add(Cartridge.load(p));
            }
        }
        for (Cartridge cart : carts) {
            for (int every : new int[] {60, 4}) {
                int frames = 900;
                CheckpointRing ring = new CheckpointRing(frames / every, new EpochFence());
                Console c = Console.create(cart);
                for (int f = 0; f < 600; f++) {
                    c.runFrame(); // past boot screens, as the benchmark does
                }
                run(c, ring, frames, every, new ArrayList<>());
                double perMinute = ring.bytes() * FRAMES_PER_MINUTE / frames;
                System.out.printf("checkpoint ring, %s, every %d frames: %.0f bytes per minute (raw %.0f)%n",
                        cart.name(), every, perMinute, ring.rawBytes() * FRAMES_PER_MINUTE / frames);
                assertTrue(perMinute <= 1_000_000, cart.name() + " every " + every + " frames: " + perMinute + " B/min");
            }
        }
    }
}
