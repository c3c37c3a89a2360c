package lockstep.nes.desktop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import lockstep.nes.core.AtomicFile;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.BatterySave;
import lockstep.nes.core.cart.fds.DiskChanges;
import lockstep.nes.core.cart.fds.DiskImage;
import lockstep.nes.core.cart.fds.FdsBoard;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.ppu.FrameImage;
import lockstep.nes.ppu.Palette;
import lockstep.nes.verifier.DivergenceReport;
import lockstep.nes.verifier.FaultSpec;
import lockstep.nes.verifier.Faults;
import lockstep.nes.desktop.debug.Debugger;
import lockstep.nes.desktop.cheats.CheatList;
import lockstep.nes.desktop.cheats.CheatListException;
import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.cheat.CheatException;
import lockstep.nes.core.cheat.Cheats;
import lockstep.nes.verifier.LivePair;

/**
 * One game being played: the engine and everything the hotkeys do to it (pause, reset, power,
 * state slots, rewind, screenshots, movie recording, lockstep mode). No window, sound or
 * keyboard here: the app calls {@link #runFrame} once per frame with the buttons and
 * {@link #act} for each hotkey, and shows {@link #osd()}. So all of it runs in unit tests.
 *
 * <p>Frames are counted by the session ({@link #tick()}), not by the engine, so a power cycle or
 * a loaded state does not confuse the rewind buffer.
 */
public final class Session implements Rewind.Engine, lockstep.nes.desktop.cheats.CheatMenu.Target {
    private final Cartridge cart;
    private final Path rom;
    private final String romName;
    private final AppDirs dirs;
    private final SaveSlots slots;
    private final BatterySave battery;
    /** What a disk system's game wrote to its disk, kept apart from the image (null for a cartridge). */
    private final DiskChanges diskChanges;
    private final Console console;
    private final Snapshots snapshots;
    private final Rewind rewind;
    private final Osd osd;
    private final List<FaultSpec> faults;
    private final Palette palette;

    private long tick;
    private boolean paused;
    private Debugger debugger;
    private int slot = 1;
    private MovieRecorder recorder;
    private LivePair pair;
    private boolean rewinding;
    private boolean rewindAtStartShown;
    /** The game's cheat list, kept in the config folder ({@link CheatList#fileFor}). */
    private final Path cheatFile;
    private CheatList cheatList = new CheatList();

    /**
     * A session for {@code cart} ({@code rom} is its file, or null for the built-in demo ROM),
     * with the battery save loaded and state slots next to it.
     */
    public Session(Cartridge cart, Path rom, AppDirs dirs, SaveSlots slots, Osd osd, List<FaultSpec> faults)
            throws RomFormatException {
        this(cart, Console.create(cart), rom, dirs, slots, osd, faults);
    }

    /** A session on {@code console}, already built for {@code cart} (an NSF's player, whose board is its own). */
    private Session(Cartridge cart, Console console, Path rom, AppDirs dirs, SaveSlots slots, Osd osd,
                    List<FaultSpec> faults) throws RomFormatException {
        this.cart = cart;
        this.rom = rom;
        this.romName = rom == null ? cart.name() : rom.getFileName().toString();
        this.dirs = dirs;
        this.slots = slots;
        this.osd = osd;
        this.faults = List.copyOf(faults);
        this.console = console;
        this.palette = Palette.of(console.region());
        Faults.check(this.faults, console); // a reg@ fault out of its field's range is refused before play
        this.snapshots = new Snapshots(console);
        this.rewind = Rewind.standard();
        this.battery = rom != null && cart.battery() ? new BatterySave(rom, cart, dirs.saves()) : null;
        this.diskChanges = rom != null && cart.disk() != null ? new DiskChanges(rom, cart, dirs.saves()) : null;
        this.cheatFile = CheatList.fileFor(dirs.config(), romName);
        try {
            cheatList = CheatList.load(cheatFile);
            if (!cheatList.enabled().isEmpty()) {
                applyCheats();
                osd.post(cheatList.enabled().size() + " cheats on from " + cheatFile);
            }
        } catch (CheatListException e) {
            osd.post(e.getMessage());
        }
        if (diskChanges != null) {
            try {
                Path from = diskChanges.load((FdsBoard) console.mapper());
                if (from != null) {
                    osd.post("disk changes loaded from " + from);
                }
            } catch (IOException e) {
                osd.post("cannot read the disk changes: " + e.getMessage());
            }
        }
        if (battery != null) {
            try {
                Path from = battery.load(console.mapper());
                if (from != null) {
                    osd.post("battery RAM loaded from " + from);
                }
            } catch (IOException e) {
                osd.post("cannot read the battery save: " + e.getMessage());
            }
        }
    }

    /** A session playing {@code console} (an NSF's player console) for the file {@code file}. */
    public static Session ofConsole(Console console, Path file, AppDirs dirs, Osd osd) throws RomFormatException {
        final Cartridge cart = console.cartridge();
        return new Session(cart, console, file, dirs, SaveSlots.of(file, cart, dirs.saves()), osd, List.of());
    }

    /** Opens {@code rom} (null: the demo ROM) with slots beside its battery save. */
    public static Session open(Cartridge cart, Path rom, AppDirs dirs, Osd osd, List<FaultSpec> faults)
            throws RomFormatException {
        return new Session(cart, rom, dirs, SaveSlots.of(rom, cart, dirs.saves()), osd, faults);
    }

    public Cartridge cart() {
        return cart;
    }

    public Console console() {
        return console;
    }

    /** The console's frames per second (NTSC 60.0988, PAL and Dendy 50.0070): the game's pace. */
    public double frameRate() {
        return console.region().frameRate();
    }

    /** The palette of the console's PPU. */
    public Palette palette() {
        return palette;
    }

    public Osd osd() {
        return osd;
    }

    public String romName() {
        return romName;
    }

    public long tick() {
        return tick;
    }

    public boolean paused() {
        return paused;
    }

    public int slot() {
        return slot;
    }

    public SaveSlots slots() {
        return slots;
    }

    public Rewind rewind() {
        return rewind;
    }

    public boolean recording() {
        return recorder != null;
    }

    /** The game's cheat list (change it through {@link #addCheat} and {@link #setCheat}). */
    @Override
    public CheatList cheatList() {
        return cheatList;
    }

    /** Adds {@code code} to the cheat list, on, puts it in effect and saves the list; returns the message. */
    @Override
    public String addCheat(String code) {
        final Cheat c;
        try {
            c = cheatList.add(code);
        } catch (CheatException e) {
            return post(e.getMessage());
        }
        return post(applyAndSave("cheat " + c.code() + " on"));
    }

    /** Puts entry {@code index} of the cheat list on or off, in effect at once, and saves the list; returns the message. */
    @Override
    public String setCheat(int index, boolean on) {
        if (index < 0 || index >= cheatList.entries().size()) {
            return post("no cheat " + (index + 1) + " (the list has " + cheatList.entries().size() + ")");
        }
        try {
            cheatList.set(index, on);
        } catch (CheatException e) {
            return post(e.getMessage());
        }
        return post(applyAndSave("cheat " + cheatList.entries().get(index).cheat().code() + (on ? " on" : " off")));
    }

    private String post(String msg) {
        osd.post(msg);
        return msg;
    }

    private String applyAndSave(String msg) {
        final String applied = applyCheats();
        if (applied != null) {
            return applied;
        }
        try {
            cheatList.save(cheatFile);
        } catch (IOException e) {
            return msg + ", but cannot save the cheat list: " + cheatFile + " (" + e.getMessage() + ")";
        }
        return msg;
    }

    /**
     * Puts the command line's cheats and the list's codes that are on in effect, on engine A and,
     * in lockstep mode, on engine B at the same point, so the pair stays in agreement. Returns
     * null, or the message when there are more than the console holds.
     */
    private String applyCheats() {
        final List<Cheat> all = new java.util.ArrayList<>(cart.cheats());
        all.addAll(cheatList.enabled());
        if (all.size() > Cheats.MAX) {
            return "at most " + Cheats.MAX + " cheats in effect, not " + all.size();
        }
        console.setCheats(all);
        if (pair != null && !pair.diverged()) {
            pair.second().setCheats(all);
        }
        return null;
    }

    /** The lockstep pair while lockstep mode is on, else null. */
    public LivePair lockstep() {
        return pair;
    }

    /**
     * Runs one frame with these buttons (nothing while paused or rewinding). In lockstep mode
     * both engines run it; a divergence pauses the game with the report on screen.
     */
    public void runFrame(int buttons0, int buttons1) {
        if (paused || rewinding) {
            return;
        }
        rewind.beforeFrame(tick, this, buttons0, buttons1);
        if (recorder != null) {
            recorder.frame(buttons0, buttons1);
        }
        tick++;
        if (pair != null) {
            if (!pair.runFrame(buttons0, buttons1)) {
                paused = true;
                DivergenceReport r = pair.report();
                osd.post("DIVERGENCE at cycle " + r.cycle() + ": game paused (F10 leaves lockstep mode)");
            }
            return;
        }
        console.setButtons(0, buttons0);
        console.setButtons(1, buttons1);
        if (debugger == null) {
            console.runFrame();
        } else if (!debugger.runFrame(console)) {
            paused = true;
            osd.post("breakpoint: " + debugger.stopReason());
        }
    }

    /** Runs frames through {@code d} (its breakpoints stop and pause the game); null: plain frames. */
    public void attachDebugger(Debugger d) {
        debugger = d;
    }

    /** Pauses or resumes the game (the debugger's buttons; the pause key is {@link #act}). */
    public void setPaused(boolean p) {
        if (!p && pair != null && pair.diverged()) {
            return;
        }
        paused = p;
    }

    /**
     * One step of a held rewind: back one checkpoint (four frames). Returns false when the
     * buffer holds nothing older.
     */
    public boolean rewindStep() {
        if (!rewinding) {
            rewinding = true;
            rewindAtStartShown = false;
            if (recorder != null) {
                stopRecording("rewind");
            }
        }
        long t = rewind.stepBack(tick, this);
        if (t < 0) {
            if (!rewindAtStartShown) {
                rewindAtStartShown = true;
                osd.post("rewind: nothing older in the buffer");
            }
            return false;
        }
        tick = t;
        return true;
    }

    /** The rewind key was released: play goes on from here (lockstep restarts from here). */
    public void rewindReleased() {
        if (!rewinding) {
            return;
        }
        rewinding = false;
        osd.post(String.format(Locale.ROOT, "rewound to %.1f s (%.0f s left in the buffer)",
                tick / frameRate(), rewind.secondsBack(tick)));
        if (pair != null) {
            restartLockstep();
            paused = false;
        }
    }

    /**
     * Does what a hotkey does to the game and confirms it on screen. Returns the message, or
     * null for actions that belong to the window (aspect, scale, open, help, quit, buttons).
     */
    public String act(Action action) {
        String msg = switch (action) {
            case PAUSE -> togglePause();
            case RESET -> reset();
            case POWER_CYCLE -> power();
            case SAVE_STATE -> saveState();
            case LOAD_STATE -> loadState();
            case SLOT_1, SLOT_2, SLOT_3, SLOT_4, SLOT_5, SLOT_6, SLOT_7, SLOT_8, SLOT_9 -> selectSlot(action.slot());
            case SCREENSHOT -> screenshot();
            case RECORD_MOVIE -> recorder == null ? startRecording() : stopRecording("stopped");
            case RECORD_MOVIE_FROM_STATE -> recorder == null ? startRecordingHere() : stopRecording("stopped");
            case LOCKSTEP -> toggleLockstep();
            case DISK_SIDE -> diskSide();
            default -> null;
        };
        if (msg != null) {
            osd.post(msg);
        }
        return msg;
    }

    private String togglePause() {
        if (pair != null && pair.diverged()) {
            return "diverged: F10 leaves lockstep mode, or rewind to before the divergence";
        }
        paused = !paused;
        return paused ? "paused" : "resumed";
    }

    private String reset() {
        if (pair != null && !pair.diverged()) {
            pair.reset();
        } else {
            console.reset();
        }
        if (recorder != null) {
            recorder.command(Fm2.COMMAND_RESET);
        }
        return "reset";
    }

    private String power() {
        if (pair != null && !pair.diverged()) {
            pair.power();
        } else {
            console.power();
        }
        if (recorder != null) {
            recorder.command(Fm2.COMMAND_POWER);
        }
        return "power cycle";
    }

    /**
     * A disk system's disk key: the disk out of the drive, or (when it is out) the next side in,
     * as the movie's FDS commands (4 insert/eject, 8 next side) so a recording replays it.
     */
    private String diskSide() {
        if (!(console.mapper() instanceof FdsBoard board)) {
            return "no disk drive: this is a cartridge";
        }
        final int commands = board.insertedSide() >= 0 ? FdsBoard.COMMAND_INSERT
                : FdsBoard.COMMAND_SELECT_SIDE | FdsBoard.COMMAND_INSERT;
        if (pair != null && !pair.diverged()) {
            pair.diskCommands(commands);
        } else {
            board.movieCommands(commands);
        }
        if (recorder != null) {
            recorder.command(commands);
        }
        final int side = board.insertedSide();
        return side < 0 ? "disk ejected" : "disk side " + DiskImage.sideName(side) + " inserted";
    }

    private String selectSlot(int n) {
        slot = n;
        return "slot " + n + (Files.isRegularFile(slots.slot(n)) ? "" : " (empty)");
    }

    private String saveState() {
        try {
            Path file = slots.write(slot, snapshots.save());
            return "state saved to slot " + slot + " (" + file + ")";
        } catch (IOException e) {
            return "cannot save state to slot " + slot + ": " + e.getMessage();
        }
    }

    private String loadState() {
        Path file = slots.slot(slot);
        if (!Files.isRegularFile(file)) {
            return "slot " + slot + " is empty";
        }
        byte[] data;
        try {
            data = Files.readAllBytes(file);
        } catch (IOException e) {
            return "cannot read slot " + slot + ": " + file + " (" + e.getMessage() + ")";
        }
        try {
            snapshots.load(data, data.length, file.toString());
        } catch (SnapshotException e) {
            return "cannot load slot " + slot + ": " + e.getMessage();
        }
        if (recorder != null) {
            stopRecording("state loaded");
        }
        if (pair != null) {
            restartLockstep();
            paused = false;
        }
        return "state loaded from slot " + slot;
    }

    private String screenshot() {
        try {
            Path file = nextFile(dirs.screenshots(), ".png");
            AtomicFile.write(file, FrameImage.png(console.ppu().frame(), palette));
            return "screenshot " + file;
        } catch (IOException e) {
            return "cannot write screenshot: " + e.getMessage();
        }
    }

    private String startRecording() {
        recorder = new MovieRecorder(romName, cart);
        if (pair != null && !pair.diverged()) {
            pair.power();
        } else {
            console.power();
        }
        return "recording movie from power-on (F9 stops)";
    }

    /** Starts a recording from the present state, which the movie carries. */
    private String startRecordingHere() {
        Snapshots s = new Snapshots(console);
        recorder = new MovieRecorder(romName, cart, s.save());
        if (pair != null && !pair.diverged()) {
            restartLockstep();
        }
        return "recording movie from this state (F8 stops)";
    }

    /** Writes the movie being recorded and ends the recording; returns the message. */
    private String stopRecording(String why) {
        MovieRecorder r = recorder;
        recorder = null;
        String msg;
        try {
            Path file = nextFile(dirs.movies(), ".fm2");
            Fm2.write(r.movie(), file);
            msg = "movie " + why + ": " + r.frames() + " frames saved to " + file;
        } catch (IOException e) {
            msg = "cannot write the movie: " + e.getMessage();
        }
        if (!why.equals("stopped")) {
            osd.post(msg);
        }
        return msg;
    }

    private String toggleLockstep() {
        if (pair != null) {
            long verified = pair.cyclesVerified();
            boolean wasDiverged = pair.diverged();
            pair = null;
            if (wasDiverged) {
                paused = false;
            }
            return "lockstep off (" + verified + " cycles verified" + (wasDiverged ? ", diverged" : "") + ")";
        }
        try {
            pair = new LivePair(console, romName, faults);
        } catch (RomFormatException e) {
            return "lockstep: cannot start engine B: " + e.getMessage();
        }
        return "lockstep on: engine B starts from A's state";
    }

    /** After a state jump both engines start over from A's state; faults already fired stay fired. */
    private void restartLockstep() {
        try {
            pair = new LivePair(console, romName, List.of());
        } catch (RomFormatException e) {
            pair = null;
            osd.post("lockstep: cannot restart engine B: " + e.getMessage());
        }
    }

    /** The lockstep overlay: status line, and the report after a divergence. Empty when off. */
    public List<String> lockstepLines() {
        List<String> out = new ArrayList<>();
        if (pair == null) {
            return out;
        }
        out.add(String.format(Locale.ROOT, "LOCKSTEP  divergence %d  drift %d  verified %,d cycles",
                pair.diverged() ? 1 : 0, pair.drift(), pair.cyclesVerified()));
        if (pair.diverged()) {
            for (String line : pair.report().toText().split("\n")) {
                out.add(line);
            }
        }
        return out;
    }

    /** Saves the battery RAM, a disk's changes and any recording; returns what it did (for the terminal). */
    public List<String> close() {
        List<String> out = new ArrayList<>();
        if (recorder != null) {
            out.add(stopRecording("ended"));
        }
        if (diskChanges != null) {
            try {
                Path to = diskChanges.save((FdsBoard) console.mapper());
                if (to != null) {
                    out.add("disk changes saved to " + to);
                }
            } catch (IOException e) {
                out.add(diskChanges.file() + ": cannot write the disk changes (" + e.getMessage() + ")");
            }
        }
        if (battery != null) {
            try {
                out.add("battery RAM saved to " + battery.save(console.mapper()));
            } catch (IOException e) {
                out.add(battery.target() + ": cannot write the battery save (" + e.getMessage() + ")");
            }
        }
        return out;
    }

    /** {@code <dir>/<rom name>-NNNN<ext>}, the first number not taken. */
    private Path nextFile(Path dir, String ext) throws IOException {
        Files.createDirectories(dir);
        String base = romName.replaceAll("(?i)\\.(nes|unf|fds)$", "").replaceAll("[^A-Za-z0-9._-]", "_");
        for (int i = 1; ; i++) {
            Path p = dir.resolve(String.format(Locale.ROOT, "%s-%04d%s", base, i, ext));
            if (!Files.exists(p)) {
                return p;
            }
        }
    }

    // Rewind.Engine: the rewind buffer plays engine A alone.

    @Override
    public int save() {
        return snapshots.saveToBuffer();
    }

    @Override
    public byte[] saved() {
        return snapshots.buffer();
    }

    @Override
    public void load(byte[] data, int length) {
        try {
            snapshots.load(data, length, "rewind checkpoint");
        } catch (SnapshotException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public void replayFrame(int buttons0, int buttons1) {
        console.setButtons(0, buttons0);
        console.setButtons(1, buttons1);
        console.runFrame();
    }
}
