package lockstep.nes.desktop;

import static org.junit.jupiter.api.Assertions.*;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import lockstep.nes.core.Console;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.input.Controllers;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Palette;
import lockstep.nes.verifier.FaultSpec;
import lockstep.nes.verifier.MovieInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionTest {
    @TempDir
    Path dir;

    private Session session(List<FaultSpec> faults) throws Exception {
        AppDirs dirs = new AppDirs(dir.resolve("config"), dir.resolve("data"));
        return Session.open(DemoRom.cartridge(), null, dirs, new Osd(), faults);
    }

    private static String hash(Console c) {
        return new Snapshots(c).stateHash();
    }

    private static void play(Session s, int frames) {
        for (int i = 0; i < frames; i++) {
            s.runFrame(i % 16 < 8 ? Controllers.RIGHT | Controllers.A : Controllers.START, 0);
        }
    }

    @Test
    void pauseHoldsTheGameAndSaysSo() throws Exception {
        Session s = session(List.of());
        play(s, 3);
        assertEquals("paused", s.act(Action.PAUSE));
        assertEquals("paused", s.osd().last());
        long frame = s.console().frame();
        play(s, 3);
        assertEquals(frame, s.console().frame());
        assertEquals("resumed", s.act(Action.PAUSE));
        play(s, 2);
        assertEquals(frame + 2, s.console().frame());
    }

    @Test
    void theDiskKeyEjectsAndInsertsTheNextSideOnADiskSystemOnly() throws Exception {
        assertEquals("no disk drive: this is a cartridge", session(List.of()).act(Action.DISK_SIDE));
        byte[] image = new byte[16 + 2 * lockstep.nes.core.cart.fds.DiskImage.FDS_SIDE];
        image[0] = 'F';
        image[1] = 'D';
        image[2] = 'S';
        image[3] = 0x1A;
        image[4] = 2;
        for (int side = 0; side < 2; side++) {
            int at = 16 + side * lockstep.nes.core.cart.fds.DiskImage.FDS_SIDE;
            image[at] = 1;
            System.arraycopy("*NINTENDO-HVC*".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, image, at + 1, 14);
            image[at + 56] = 2;
        }
        Path rom = Files.write(dir.resolve("game.fds"), image);
        AppDirs dirs = new AppDirs(dir.resolve("config"), dir.resolve("data"));
        Session s = Session.open(lockstep.nes.core.cart.fds.DiskSystem.cartridge("game.fds", image,
                new byte[lockstep.nes.core.cart.fds.FdsBios.SIZE], 0), rom, dirs, new Osd(), List.of());
        assertEquals("disk ejected", s.act(Action.DISK_SIDE));
        assertEquals("disk side 1B inserted", s.act(Action.DISK_SIDE));
        assertEquals("disk ejected", s.act(Action.DISK_SIDE));
        assertEquals("disk side 1A inserted", s.act(Action.DISK_SIDE));
        assertEquals(List.of(), s.close(), "nothing written to the disk: no changes file");
    }

    @Test
    void resetAndPowerCycle() throws Exception {
        Session s = session(List.of());
        play(s, 5);
        assertEquals("power cycle", s.act(Action.POWER_CYCLE));
        Console fresh = Console.create(DemoRom.cartridge());
        // Console.power() leaves a few CPU/DMA bus latches as they were (an engine matter, not
        // the app's): apart from those, a power cycle is a console just switched on.
        s.runFrame(0, 0);
        fresh.runFrame();
        List<String> diff = lockstep.nes.state.StateDiff.diff(lockstep.nes.state.Describer.describe(fresh),
                lockstep.nes.state.Describer.describe(s.console()));
        assertEquals(List.of(), diff, "power cycle = a console just switched on");
        play(s, 5);
        long pcBefore = s.console().cycles();
        assertEquals("reset", s.act(Action.RESET));
        assertEquals(pcBefore, s.console().cycles(), "a reset does not rewind the clock");
    }

    @Test
    void stateSlotsSaveAndLoadAndRefuseBadFiles() throws Exception {
        Session s = session(List.of());
        play(s, 10);
        assertTrue(s.act(Action.SLOT_2).startsWith("slot 2 (empty)"));
        String saved = s.act(Action.SAVE_STATE);
        assertTrue(saved.startsWith("state saved to slot 2"), saved);
        assertTrue(Files.isRegularFile(s.slots().slot(2)));
        String h = hash(s.console());
        play(s, 10);
        assertNotEquals(h, hash(s.console()));
        assertEquals("state loaded from slot 2", s.act(Action.LOAD_STATE));
        assertEquals(h, hash(s.console()));

        assertEquals("slot 5 is empty", s.act(Action.SLOT_5) == null ? null : s.act(Action.LOAD_STATE));
        Files.write(s.slots().slot(5), new byte[] {1, 2, 3, 4});
        play(s, 1);
        String before = hash(s.console());
        String msg = s.act(Action.LOAD_STATE);
        assertTrue(msg.startsWith("cannot load slot 5: " + s.slots().slot(5)), msg);
        assertEquals(before, hash(s.console()), "a bad slot leaves the game as it was");
    }

    @Test
    void screenshotIsThePictureAsPng() throws Exception {
        Session s = session(List.of());
        play(s, 30);
        String msg = s.act(Action.SCREENSHOT);
        assertTrue(msg.startsWith("screenshot "), msg);
        Path png = Path.of(msg.substring("screenshot ".length()));
        assertEquals(dir.resolve("data/screenshots"), png.getParent());
        BufferedImage img = ImageIO.read(png.toFile());
        BufferedImage expected = FrameImage.toImage(s.console().ppu().frame(), Palette.ntsc());
        assertEquals(256, img.getWidth());
        assertEquals(240, img.getHeight());
        for (int y = 0; y < 240; y++) {
            for (int x = 0; x < 256; x++) {
                assertEquals(expected.getRGB(x, y), img.getRGB(x, y));
            }
        }
        String second = s.act(Action.SCREENSHOT);
        assertNotEquals(msg, second, "a second screenshot does not overwrite the first");
    }

    @Test
    void aRecordingIsAValidFm2ThatReplaysToTheSameState() throws Exception {
        Session s = session(List.of());
        play(s, 7);
        assertTrue(s.act(Action.RECORD_MOVIE).startsWith("recording"));
        assertTrue(s.recording());
        play(s, 40);
        s.act(Action.RESET);
        play(s, 40);
        String stop = s.act(Action.RECORD_MOVIE);
        assertFalse(s.recording());
        assertTrue(stop.startsWith("movie stopped: 80 frames saved to "), stop);
        Path fm2 = Path.of(stop.substring(stop.indexOf(" saved to ") + 10));

        Movie movie = Fm2.read(fm2);
        assertEquals(80, movie.frames().size());
        assertEquals("3", movie.get("version"));
        assertTrue(movie.get("romChecksum").startsWith("base64:"));
        assertTrue(movie.frames().get(40).reset(), "the reset is frame 40's command");
        Console replay = Console.create(DemoRom.cartridge());
        MovieInput in = new MovieInput(movie);
        for (int i = 0; i < movie.frames().size(); i++) {
            in.apply(i, replay);
            replay.runFrame();
        }
        assertEquals(hash(s.console()), hash(replay), "the movie replays to the recorded game");
    }

    @Test
    void aMovieRecordedFromAStateCarriesItAndReplaysFromIt() throws Exception {
        Session s = session(List.of());
        play(s, 37);
        assertEquals("recording movie from this state (F8 stops)", s.act(Action.RECORD_MOVIE_FROM_STATE));
        long startFrame = s.console().frame();
        play(s, 50);
        String stop = s.act(Action.RECORD_MOVIE_FROM_STATE);
        assertTrue(stop.startsWith("movie stopped: 50 frames saved to "), stop);
        Movie movie = Fm2.read(Path.of(stop.substring(stop.indexOf(" saved to ") + 10)));
        assertTrue(lockstep.nes.core.movie.MovieStart.fromState(movie));

        Console replay = Console.create(DemoRom.cartridge());
        lockstep.nes.core.movie.MovieStart.begin(movie, replay, "test.fm2");
        assertEquals(startFrame, replay.frame(), "the replay starts where the recording did, not at power-on");
        MovieInput in = new MovieInput(movie);
        for (int i = 0; i < movie.frames().size(); i++) {
            in.apply(i, replay);
            replay.runFrame();
        }
        assertEquals(hash(s.console()), hash(replay), "the movie replays from its state to the recorded game");
    }

    @Test
    void lockstepModeVerifiesAndPausesOnDivergenceWithTheReport() throws Exception {
        Console probe = Console.create(DemoRom.cartridge());
        probe.runFrame();
        probe.runFrame();
        long at = probe.cycles() + 12_345;
        Session s = session(List.of(FaultSpec.parse("ram-bitflip@" + at + ":B:$20:0")));
        play(s, 2);
        assertEquals("lockstep on: engine B starts from A's state", s.act(Action.LOCKSTEP));
        assertTrue(s.lockstepLines().get(0).startsWith("LOCKSTEP  divergence 0  drift 0  verified 0 cycles"));
        play(s, 5);
        assertTrue(s.paused(), "divergence pauses the game");
        assertEquals(at, s.console().cycles(), "stopped at the divergent cycle");
        List<String> lines = s.lockstepLines();
        assertTrue(lines.get(0).startsWith("LOCKSTEP  divergence 1"), lines.get(0));
        assertTrue(lines.get(1).startsWith("DIVERGENCE at cycle " + at), lines.get(1));
        assertTrue(String.join("\n", lines).contains("console.ram"), String.join("\n", lines));
        assertTrue(s.osd().last().startsWith("DIVERGENCE at cycle " + at));
        assertTrue(s.act(Action.PAUSE).startsWith("diverged"));
        assertTrue(s.paused());
        assertTrue(s.act(Action.LOCKSTEP).startsWith("lockstep off"));
        assertFalse(s.paused());
        long f = s.console().frame();
        play(s, 2);
        assertEquals(f + 2, s.console().frame());
    }

    @Test
    void lockstepWithoutFaultsStaysInAgreement() throws Exception {
        Session s = session(List.of());
        s.act(Action.LOCKSTEP);
        play(s, 4);
        assertFalse(s.lockstep().diverged());
        assertEquals(s.console().cycles(), s.lockstep().second().cycles());
        assertTrue(s.lockstep().cyclesVerified() > 4 * 29_000);
        assertEquals(hash(s.console()), hash(s.lockstep().second()));
    }

    @Test
    void holdingRewindWalksBackFourFramesAStep() throws Exception {
        Session s = session(List.of());
        String[] at = new String[41];
        for (int i = 0; i < 40; i++) {
            at[i] = hash(s.console());
            s.runFrame(i % 3 == 0 ? Controllers.A : 0, 0);
        }
        assertTrue(s.rewindStep());
        assertEquals(37, s.tick());
        assertEquals(at[37], hash(s.console()));
        assertTrue(s.rewindStep());
        assertEquals(33, s.tick());
        play(s, 1);
        assertEquals(33, s.tick(), "no frames run while the key is held");
        s.rewindReleased();
        assertTrue(s.osd().last().startsWith("rewound to 0.5 s"), s.osd().last());
        s.runFrame(0, 0);
        assertEquals(34, s.tick());
    }
}
