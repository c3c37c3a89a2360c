package lockstep.nes.roms;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import lockstep.nes.core.Console;
import lockstep.nes.core.Nestest;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.ppu.Region;

/**
 * Runs one test ROM headless: a fresh console (all-zero power-on RAM), the entry's inputs
 * applied before their frames, and the result read after each frame as the entry's family
 * says, until the ROM reports or the frame limit is reached.
 */
public final class RomRunner {
    /** Frames between a $6000 reset request ($81) and the reset: 100 ms is 6 frames; a little more. */
    static final int RESET_DELAY_FRAMES = 10;
    /** f8 family: frames the ROM must sit in its final JMP-to-itself loop before the byte is read. */
    static final int F8_SETTLE_FRAMES = 10;
    /** screen family: frames to let the rest of a failure message print once a marker appears. */
    static final int SCREEN_SETTLE_FRAMES = 30;
    /** Screen texts that mean "done, failed" when an entry lists none. */
    static final List<String> DEFAULT_FAIL_TEXT = List.of("Failed", "FAILED", "Error", "ERROR");

    /**
     * Asked after every frame whether the run may go on (the farm's kill switch); a run told to
     * stop throws {@link Cancelled} instead of returning a result.
     */
    @FunctionalInterface
    public interface FrameGate {
        boolean mayContinue(int frame);
    }

    /** The run was stopped by its {@link FrameGate} at a frame boundary; there is no result. */
    public static final class Cancelled extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Cancelled(int frame) {
            super("cancelled at frame " + frame);
        }
    }

    private final Path romsDir;

    /** @param romsDir the folder manifest paths are relative to (may be null for absolute-only use) */
    public RomRunner(Path romsDir) {
        this.romsDir = romsDir;
    }

    /** The file of a manifest entry: its path under the roms dir, or the path itself if absolute. */
    public Path file(RomEntry e) {
        Path p = Path.of(e.rom());
        return p.isAbsolute() || romsDir == null ? p : romsDir.resolve(e.rom());
    }

    /** Runs {@code e}; never throws for a bad ROM or a failing engine (status error instead). */
    public RomResult run(RomEntry e) {
        return run(e, null);
    }

    /**
     * Runs {@code e}; when {@code pictures} is not null, the picture at each framehash check
     * frame is added to it (for the update mode and for people to look at).
     */
    public RomResult run(RomEntry e, List<short[]> pictures) {
        return run(e, pictures, null);
    }

    /**
     * As {@link #run(RomEntry, List)}, asking {@code gate} (may be null) after each frame whether
     * to go on.
     *
     * @throws Cancelled when the gate said stop
     */
    public RomResult run(RomEntry e, List<short[]> pictures, FrameGate gate) {
        Cartridge cart;
        try {
            cart = Cartridge.load(file(e));
            if (e.submapper() != null) {
                cart = cart.withSubmapper(e.submapper());
            }
            if (e.region() != null) {
                cart = cart.withRegion(Region.byId(e.region()));
            }
        } catch (RomFormatException ex) {
            return new RomResult(e, Status.ERROR, null, ex.getMessage(), 0, null);
        }
        try {
            if (e.family() == Family.NESTEST) {
                return nestest(e, cart);
            }
            Console console = Console.create(cart);
            return new Run(e, console, pictures, gate).go();
        } catch (Cancelled ex) {
            throw ex;
        } catch (RomFormatException ex) {
            return new RomResult(e, Status.ERROR, null, ex.getMessage(), 0, null);
        } catch (RuntimeException | StackOverflowError ex) {
            return new RomResult(e, Status.ERROR, null, "engine error: " + ex, 0, null);
        }
    }

    private RomResult nestest(RomEntry e, Cartridge cart) throws RomFormatException {
        Path log = romsDir == null ? Path.of(e.log()) : romsDir.resolve(e.log());
        List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (IOException ex) {
            return new RomResult(e, Status.ERROR, null, log + ": cannot read (" + ex.getMessage() + ")", 0, null);
        }
        Nestest.Result r = Nestest.run(cart, lines);
        String msg = r.matched() + "/" + r.total() + " lines match";
        if (!r.passed()) {
            msg += "\nexpected: " + r.expected() + "\nactual:   " + r.actual();
        }
        return new RomResult(e, r.passed() ? Status.PASS : Status.FAIL, r.matched(), msg, 0, null);
    }

    /** One run's state. */
    private static final class Run {
        final RomEntry e;
        final Console console;
        final List<short[]> pictures;
        final FrameGate gate;
        final List<InputEvent> events;
        int nextEvent;
        int frame;

        // $6000 protocol
        boolean seenRunning;
        int lastStatus = -1;
        int resetAt = -1;
        boolean resetDone;
        // f8 and screen
        int loopPc = -1;
        int loopFrames;
        int lastF8 = -1;
        int failSeenAt = -1;
        List<java.util.regex.Pattern> failPatterns;
        // framehash
        int nextHash;
        final StringBuilder hashReport = new StringBuilder();
        boolean hashMismatch;
        boolean hashMissing;

        Run(RomEntry e, Console console, List<short[]> pictures, FrameGate gate) {
            this.e = e;
            this.console = console;
            this.pictures = pictures;
            this.gate = gate;
            List<InputEvent> ev = new ArrayList<>(e.input());
            ev.sort(Comparator.comparingInt(InputEvent::frame));
            this.events = ev;
        }

        RomResult go() {
            final int limit = e.frameLimit();
            while (frame < limit) {
                applyEvents();
                console.runFrame();
                frame++;
                if (gate != null && !gate.mayContinue(frame)) {
                    throw new Cancelled(frame);
                }
                RomResult r = check();
                if (r != null) {
                    return r;
                }
                if (console.cpu().jammed()) {
                    Cpu c = console.cpu();
                    return result(Status.ERROR, null, String.format(Locale.ROOT,
                            "CPU jammed (KIL opcode) near $%04X at frame %d", c.pc(), frame) + textSuffix());
                }
            }
            return timeout(limit);
        }

        private void applyEvents() {
            while (nextEvent < events.size() && events.get(nextEvent).frame() <= frame) {
                InputEvent ev = events.get(nextEvent++);
                if (ev.power()) {
                    console.power();
                }
                if (ev.reset()) {
                    console.reset();
                }
                if (ev.buttons() != null) {
                    console.setButtons(ev.port(), ev.mask());
                }
            }
            if (resetAt >= 0 && frame >= resetAt) {
                resetAt = -1;
                resetDone = true;
                console.reset();
            }
        }

        private RomResult check() {
            return switch (e.family()) {
                case STATUS_6000 -> check6000();
                case F8 -> checkF8();
                case SCREEN -> checkScreen();
                case FRAMEHASH -> checkHashes();
                case NESTEST -> throw new IllegalStateException();
            };
        }

        private boolean signature() {
            return console.peek(0x6001) == 0xDE && console.peek(0x6002) == 0xB0 && console.peek(0x6003) == 0x61;
        }

        /** The text log at $6004 (zero-terminated), without the ANSI colour codes some ROMs add. */
        private String text6000() {
            StringBuilder sb = new StringBuilder();
            for (int a = 0x6004; a < 0x8000; a++) {
                int v = console.peek(a);
                if (v == 0) {
                    break;
                }
                if (v == 0x1B && console.peek(a + 1) == '[') {
                    // ESC [ parameters final-letter
                    a += 2;
                    while (a < 0x7FFF && !Character.isLetter(console.peek(a)) && console.peek(a) != 0) {
                        a++;
                    }
                    continue;
                }
                sb.append(v >= 0x20 && v < 0x7F || v == '\n' ? (char) v : '?');
            }
            return sb.toString();
        }

        private RomResult check6000() {
            if (!signature()) {
                return null;
            }
            int st = console.peek(0x6000);
            if (st == 0x80) {
                seenRunning = true;
                resetDone = false;
            } else if (st == 0x81) {
                seenRunning = true;
                // After our reset the ROM still shows $81 until it writes $80 again.
                if (resetAt < 0 && !resetDone) {
                    resetAt = frame + RESET_DELAY_FRAMES;
                }
            } else if (st < 0x80 && (seenRunning || st == lastStatus)) {
                // $00-$7F without having seen the test run could be a stale byte: wait a frame.
                String text = text6000();
                return result(st == 0 ? Status.PASS : Status.FAIL, st, text);
            }
            lastStatus = st;
            return null;
        }

        /** True when the CPU, stepped to an instruction start, sits on a JMP to itself. */
        private boolean inFinalLoop() {
            if (!console.cpu().atInstructionStart()) {
                console.runInstruction();
            }
            int pc = console.cpu().pc();
            boolean loop = console.peek(pc) == 0x4C && console.peek(pc + 1) == (pc & 0xFF)
                    && console.peek(pc + 2) == (pc >> 8);
            if (!loop) {
                loopPc = -1;
                loopFrames = 0;
                return false;
            }
            if (pc == loopPc) {
                loopFrames++;
            } else {
                loopPc = pc;
                loopFrames = 1;
            }
            return true;
        }

        private RomResult checkF8() {
            int v = console.peek(e.resultAddress());
            boolean loop = inFinalLoop();
            if (v != lastF8) {
                lastF8 = v;
                loopFrames = loop ? 1 : 0;
                return null;
            }
            if (v == 0 || !loop || loopFrames < F8_SETTLE_FRAMES) {
                return null;
            }
            String screen = ScreenText.read(console);
            String msg = (v == 1 ? "passed" : "failed test #" + v) + (screen.isBlank() ? "" : "\n" + screen);
            return result(v == 1 ? Status.PASS : Status.FAIL, v, msg);
        }

        private RomResult checkScreen() {
            String screen = ScreenText.read(console);
            if (failPatterns == null) {
                failPatterns = new ArrayList<>();
                for (String f : e.fail() != null ? e.fail() : DEFAULT_FAIL_TEXT) {
                    failPatterns.add(java.util.regex.Pattern.compile(f));
                }
            }
            boolean failed = false;
            for (java.util.regex.Pattern f : failPatterns) {
                failed |= f.matcher(screen).find();
            }
            if (failed) {
                // Let the rest of the message print before reading it.
                if (failSeenAt < 0) {
                    failSeenAt = frame;
                } else if (frame - failSeenAt >= SCREEN_SETTLE_FRAMES) {
                    return result(Status.FAIL, null, screen);
                }
                return null;
            }
            failSeenAt = -1;
            for (String p : e.pass()) {
                if (screen.contains(p)) {
                    return result(Status.PASS, null, screen);
                }
            }
            return null;
        }

        private RomResult checkHashes() {
            List<HashCheck> hs = e.hashes();
            while (nextHash < hs.size() && hs.get(nextHash).frame() <= frame) {
                HashCheck h = hs.get(nextHash++);
                if (h.frame() != frame) {
                    continue;
                }
                short[] pic = console.ppu().frame().clone();
                if (pictures != null) {
                    pictures.add(pic);
                }
                String got = FrameHash.of(pic);
                if (!h.recorded()) {
                    hashMissing = true;
                    hashReport.append("frame ").append(frame).append(": ").append(got).append(" (not recorded)\n");
                } else if (!h.checked()) {
                    hashMissing = true;
                    hashReport.append("frame ").append(frame).append(": ").append(got)
                            .append(" (recorded, not yet checked by a person)\n");
                } else if (!h.hash().equalsIgnoreCase(got)) {
                    hashMismatch = true;
                    hashReport.append("frame ").append(frame).append(": ").append(got)
                            .append(" != ").append(h.hash()).append('\n');
                }
            }
            if (nextHash < hs.size()) {
                return null;
            }
            if (hashMismatch || hashMissing) {
                return result(Status.FAIL, null, hashReport.toString().strip());
            }
            return result(Status.PASS, null, hs.size() + " frame hash" + (hs.size() == 1 ? "" : "es") + " match");
        }

        private String textSuffix() {
            if (e.family() == Family.STATUS_6000 && signature()) {
                String t = text6000();
                return t.isBlank() ? "" : "\n" + t;
            }
            if (e.family() == Family.SCREEN || e.family() == Family.F8) {
                String t = ScreenText.read(console);
                return t.isBlank() ? "" : "\n" + t;
            }
            return "";
        }

        private RomResult timeout(int limit) {
            String why;
            switch (e.family()) {
                case STATUS_6000 -> why = signature()
                        ? String.format(Locale.ROOT, "no result by frame %d ($6000=$%02X)", limit, console.peek(0x6000))
                        : "no $6000-protocol signature (DE B0 61 at $6001) by frame " + limit;
                case F8 -> why = String.format(Locale.ROOT, "no final result by frame %d ($%02X=$%02X)",
                        limit, e.resultAddress(), console.peek(e.resultAddress()));
                default -> why = "no result by frame " + limit;
            }
            return result(Status.TIMEOUT, null, why + textSuffix());
        }

        private RomResult result(Status status, Integer code, String message) {
            short[] pic = status == Status.PASS ? null : console.ppu().frame().clone();
            return new RomResult(e, status, code, message, frame, pic);
        }
    }
}
