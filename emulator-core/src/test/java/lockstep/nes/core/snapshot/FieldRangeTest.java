package lockstep.nes.core.snapshot;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.core.digest.TestRoms;
import lockstep.nes.state.Describer;
import lockstep.nes.state.EntryTag;
import lockstep.nes.state.FieldRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every described field has a range, and a snapshot is held to it: a value outside a declared
 * range is refused in one line naming the field and its value, with the engine untouched; the
 * values at both ends of every range (declared or implied by the field's kind) are accepted and
 * the engine runs on from them. Checked on the test program's NROM (every component) and on a
 * board of every mapper class, with CHR-ROM and with CHR-RAM (the board's own fields).
 */
class FieldRangeTest {
    /** Cycles run from a loaded extreme value: more than a frame and a whole 5-step APU sequence. */
    private static final int RUN_CYCLES = 40_000;

    /** A cartridge and the fields of its description checked on it. */
    private record Subject(Cartridge cart, List<FieldRange> ranges) {
    }

    private static List<Subject> subjects() throws RomFormatException {
        List<Subject> out = new ArrayList<>();
        Cartridge tiny = TestRoms.tiny();
        out.add(new Subject(tiny, describe(Console.create(tiny))));
        Set<String> boards = new LinkedHashSet<>();
        for (Console c : EveryBoard.consoles()) {
            Cartridge cart = c.cartridge();
            if (boards.add(c.mapper().getClass().getName() + (cart.chr().length == 0))) {
                List<FieldRange> board = new ArrayList<>();
                for (FieldRange r : describe(c)) {
                    if (r.path().startsWith("mapper.")) {
                        board.add(r);
                    }
                }
                out.add(new Subject(cart, board));
            }
        }
        return out;
    }

    private static List<FieldRange> describe(Console c) {
        Describer d = new Describer();
        c.state(d);
        return d.ranges();
    }

    /** A snapshot of {@code cart} after two frames (registers, latches and memories in use). */
    private static byte[] base(Cartridge cart) throws RomFormatException {
        Console c = Console.create(cart);
        c.setButtons(0, 0x09);
        c.runFrame();
        c.runFrame();
        return new Snapshots(c).save();
    }

    @Test
    void everyWideFieldDeclaresItsRange() throws Exception {
        List<String> undeclared = new ArrayList<>();
        for (Subject s : subjects()) {
            for (FieldRange r : s.ranges()) {
                boolean wide = r.tag() == EntryTag.I32 || r.tag() == EntryTag.I64 || r.tag() == EntryTag.INTS;
                if (wide && !r.declared()) {
                    undeclared.add(s.cart().name() + " " + r.path());
                }
            }
        }
        assertEquals(List.of(), undeclared, "i32, i64 and int-array fields without a declared range");
    }

    /** Values just outside {@code r} that its entry can hold. */
    private static long[] outside(FieldRange r) {
        FieldRange kind = FieldRange.implied(r.path(), r.tag());
        List<Long> out = new ArrayList<>();
        if (r.min() > kind.min()) {
            out.add(r.min() - 1);
        }
        if (r.max() < kind.max()) {
            out.add(r.max() + 1);
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void aValueOutOfItsDeclaredRangeIsRefusedNamingTheFieldAndTheEngineIsUntouched() throws Exception {
        int planted = 0;
        for (Subject s : subjects()) {
            byte[] good = base(s.cart());
            Console c = Console.create(s.cart());
            c.runFrame();
            Snapshots snaps = new Snapshots(c);
            for (FieldRange r : s.ranges()) {
                for (long v : outside(r)) {
                    byte[] bad = SnapshotEdit.plant(good, r.path(), v);
                    long digest = new CycleDigest(c).digest();
                    byte[] before = snaps.save();
                    SnapshotException e = assertThrows(SnapshotException.class,
                            () -> snaps.load(bad, bad.length, "snap.lss"), r.path() + " = " + v);
                    String field = r.tag() == EntryTag.INTS ? r.path() + "[0]" : r.path();
                    assertEquals("snap.lss: " + FieldRange.refusal(field, v, r.min(), r.max()), e.getMessage());
                    assertEquals(digest, new CycleDigest(c).digest(), "digest after refusing " + r.path());
                    assertArrayEquals(before, snaps.save(), "state after refusing " + r.path());
                    planted++;
                }
            }
        }
        assertTrue(planted > 100, "only " + planted + " out-of-range values planted");
    }

    /** The fields that are the snapshot's clock, which must agree with each other and the header's cycle. */
    private static final Set<String> CLOCK = Set.of("console.cycle", "console.masterClock");

    @Test
    void aClockThatContradictsItselfIsRefusedAndTheEngineIsUntouched() throws Exception {
        Cartridge cart = TestRoms.tiny();
        byte[] good = base(cart);
        Console c = Console.create(cart);
        Snapshots snaps = new Snapshots(c);
        for (String path : CLOCK) {
            byte[] bad = SnapshotEdit.plant(good, path, path.equals("console.cycle") ? -1 : 12);
            byte[] before = snaps.save();
            SnapshotException e = assertThrows(SnapshotException.class, () -> snaps.load(bad, bad.length, "snap.lss"), path);
            assertTrue(e.getMessage().startsWith("snap.lss: ") && e.getMessage().contains("disagrees with"), e.getMessage());
            assertArrayEquals(before, snaps.save(), "state after refusing " + path);
        }
        snaps.load(good, good.length, "snap.lss");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void theEndsOfEveryRangeAreAcceptedAndTheEngineRunsOn() throws Exception {
        List<String> problems = new ArrayList<>();
        for (Subject s : subjects()) {
            byte[] good = base(s.cart());
            for (FieldRange r : s.ranges()) {
                if (CLOCK.contains(r.path())) {
                    continue; // one clock in three places (the header too): a lone edit contradicts the others
                }
                for (long v : new long[] {r.min(), r.max()}) {
                    byte[] edited = SnapshotEdit.plant(good, r.path(), v);
                    Console c = Console.create(s.cart());
                    try {
                        new Snapshots(c).load(edited, edited.length, "snap.lss");
                    } catch (SnapshotException | RuntimeException e) {
                        problems.add(s.cart().name() + " " + r.path() + " = " + v + " loading: " + e);
                        continue;
                    }
                    if (r.tag() == EntryTag.I64) {
                        continue; // clocks and cycle counts: their far ends are decades away, not a cycle
                    }
                    try {
                        for (int i = 0; i < RUN_CYCLES; i++) {
                            c.runCycle();
                        }
                    } catch (RuntimeException e) {
                        problems.add(s.cart().name() + " " + r.path() + " = " + v + " then running: " + e);
                    }
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void aBoolByteOtherThanZeroOrOneIsRefused() throws Exception {
        Cartridge cart = TestRoms.tiny();
        byte[] bad = SnapshotEdit.plant(base(cart), "ppu.vblank", 2);
        Console c = Console.create(cart);
        byte[] before = new Snapshots(c).save();
        SnapshotException e = assertThrows(SnapshotException.class,
                () -> new Snapshots(c).load(bad, bad.length, "snap.lss"));
        assertEquals("snap.lss: bool 'ppu.vblank' has value 2", e.getMessage());
        assertTrue(Arrays.equals(before, new Snapshots(c).save()));
    }
}
