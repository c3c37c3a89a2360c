package lockstep.nes.core.snapshot;

import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateEntry;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.cart.Mirroring;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.state.Memory;
import lockstep.nes.state.Stateful;
import org.junit.jupiter.api.Test;

/**
 * Fails when a component's mutable state is missing from its description.
 *
 * <p>For the console and every component visited through {@code StateVisitor.section(name, c)}
 * (CPU, PPU, APU, DMA, controllers, the mapper), and every project object such a component
 * holds that is not itself a visited component (APU units, envelopes, ...), each instance field
 * is changed in turn through reflection and the component is described again: if the
 * description does not change, the field is missing from it. Changed are: every non-final
 * primitive or enum field; element 0 of every array field (final or not); byte 0 of every
 * {@link Memory}. Final primitives are immutable and skipped; references to other visited
 * components (and back-references to the console) are checked as those components.
 *
 * <p>This works whatever names a component gives its fields in its description (a field
 * {@code fcCycle} may be described as {@code frameCounter.cycle}).
 *
 * <p>Every Mapper subclass that {@code Cartridge.createMapper} can build (mapper numbers 0-255,
 * with CHR-ROM and with CHR-RAM) is checked, and every concrete Mapper subclass in the cart
 * package must be reachable that way.
 */
class DescriptionCoverageTest {

    /**
     * Fields deliberately not described, each with its reason. Keys are
     * {@code declaringClass.simpleName + "." + field}.
     */
    private static final Map<String, String> ALLOWED = Map.ofEntries(
            // Video output: rewritten every frame from the described state, not an input to it.
            Map.entry("Ppu.frame", "picture output buffer"),
            // Audio output (band-limited resampler and sample ring): consumes the APU's levels,
            // never feeds back into emulation.
            Map.entry("Apu.audio", "audio output"),
            // The APU's lazy catch-up: how far it has run and when it must next run (derived from
            // the described state and the console's cycle; caught up before any description).
            Map.entry("Apu.done", "catch-up position"),
            Map.entry("Apu.deadline", "catch-up deadline"),
            Map.entry("Apu.eager", "test reference switch"),
            Map.entry("Apu.quietUntil", "catch-up span cache"),
            Map.entry("Apu.quietLevel", "catch-up span cache"),
            Map.entry("Apu.irqLine", "IRQ line cache (frameIrq || dmc.irqFlag, set after every change)"),
            // The CPU's poll after a quiet cycle: /IRQ as the last poll saw it, valid while
            // linesSeen (cleared by power-on, reset and every state visit).
            Map.entry("Cpu.irqLine", "poll cache"),
            Map.entry("Cpu.linesSeen", "poll cache validity"),
            // ROM data (padded to a power of two), identified by the snapshot's ROM hash.
            Map.entry("Mapper.prg", "PRG-ROM"),
            // CHR-ROM, or the array of the CHR-RAM memory (described as that memory).
            Map.entry("Mapper.chr", "CHR-ROM / CHR-RAM array"),
            // The array of the PRG-RAM memory, described as that memory.
            Map.entry("Mapper.prgRamData", "PRG-RAM array"),
            // Bank tables: caches rebuilt from the board's registers by updateBanks() on load.
            Map.entry("Mapper.prgPage", "bank cache"),
            Map.entry("Mapper.chrPage", "bank cache"),
            Map.entry("Mapper.ntPage", "bank cache"),
            Map.entry("Mapper.prgRamPage", "bank cache"),
            Map.entry("Mapper.prgRamRead", "bank cache"),
            Map.entry("Mapper.prgRamWrite", "bank cache"),
            // The cycle count of a board without a console (unit tests); with a console, boards
            // read the console's clock, and those that count cycles describe their count.
            Map.entry("Mapper.detachedCycles", "clock of a board driven by hand"),
            // MMC3's last A12 fall, timed but not yet counted: a12LowAt is worked out from it
            // before any visit (described as a12LowAt).
            Map.entry("Mmc3.fallPending", "a12LowAt not yet worked out"),
            Map.entry("Mmc3.fallTime", "a12LowAt not yet worked out"),
            // The sweep unit's target period: recomputed from period/shift/negate (updateTarget on load).
            Map.entry("Pulse.targetPeriod", "sweep target cache"),
            // Per-cycle digest caches: a component's digest term of its described fields, and
            // whether it must be recomputed (DigestFastPathTest proves them equal to the description).
            Map.entry("Console.inPpuRun", "bookkeeping of a PPU run in progress (runWatched); false between cycles"),
            Map.entry("Console.runStartPosition", "bookkeeping of a PPU run in progress (runWatched)"),
            Map.entry("Console.runStartClock", "bookkeeping of a PPU run in progress (runWatched)"),
            Map.entry("Console.ppuDeadline", "catch-up deadline, derived from the PPU's position and the board"),
            Map.entry("Console.ppuEventDeadline", "catch-up deadline, derived from the PPU's position"),
            Map.entry("Console.ppuTerm", "digest cache"),
            Map.entry("Console.ppuTermCount", "digest cache"),
            Map.entry("Ppu.digestStale", "digest cache"),
            Map.entry("Ppu.digestCold", "digest cache"),
            // A batch loop's A12 changes for a board with dips, told to the board when the loop
            // ends (Ppu.tellA12): empty between batches, the level equal to the board's.
            Map.entry("Ppu.a12Queue", "A12 changes of a batch loop in progress; empty between batches"),
            Map.entry("Ppu.a12Queued", "A12 changes of a batch loop in progress; 0 between batches"),
            Map.entry("Ppu.a12Level", "A12 level of a batch loop in progress (the board's, once told)"),
            Map.entry("Ppu.shownColor", "cache of the 32 shown colours, rebuilt from palette and mask when shownMask says it is stale"),
            Map.entry("Ppu.shownMask", "cache key of shownColor (the mask it was built for, -1 after a palette change or load)"),
            Map.entry("Apu.digestStale", "digest cache"),
            Map.entry("Apu.digestCold", "digest cache"),
            Map.entry("Dmc.digestStale", "digest cache"),
            Map.entry("Dmc.digestCold", "digest cache"),
            Map.entry("Dmc.digestVersion", "digest cache"),
            Map.entry("Apu.termCache", "digest cache"),
            Map.entry("Apu.termDone", "digest cache"),
            Map.entry("Apu.termDmcVersion", "digest cache"),
            Map.entry("Dma.digestStale", "digest cache"),
            Map.entry("Dma.digestCached", "digest cache"),
            Map.entry("Controllers.digestStale", "digest cache"),
            Map.entry("Controllers.digestCached", "digest cache"),
            Map.entry("Mapper.digestStale", "digest cache"),
            Map.entry("Mapper.digestScalars", "digest cache"),
            Map.entry("Mapper.digestMemories", "digest cache"),
            Map.entry("Mapper.digestCoefficients", "digest cache"),
            Map.entry("Mapper.digestVisitor", "digest cache"),
            Map.entry("Mapper.digestHot", "digest cache"),
            Map.entry("Mapper.digestAlways", "digest cache"),
            Map.entry("Mapper.digestWeights", "digest cache"),
            // The lockstep check's change tracking (Console.sameRepresentation): counts and
            // what the check last saw, not state.
            Map.entry("ChangeCounter.count", "change count of the lockstep check"),
            Map.entry("Console.seenPartner", "lockstep check's memory"),
            Map.entry("Console.seenMine", "lockstep check's memory"),
            Map.entry("Console.seenTheirs", "lockstep check's memory"),
            // The chained stretch in progress (Console.runChained): whether one runs, its running
            // hash, and the counted parts' term as of a change count (a cache).
            Map.entry("Console.chained", "whether a chained stretch is running"),
            Map.entry("Console.chain", "the running stretch's hash"),
            Map.entry("Console.chainedCount", "change count when the stretch last folded the counted parts"),
            Map.entry("Console.chainedParts", "the counted parts' term the stretch last folded"),
            // The representation digest's caches (Console.representationTerm).
            Map.entry("Console.representedCount", "cache key of representedParts"),
            Map.entry("Console.representedParts", "cache of the representation digest's counted parts"),
            Map.entry("Console.boardSlope", "cache: the board term's growth per cycle"),
            Map.entry("Console.representedCycle", "cache key: the cycle representedParts was taken at"));

    @Test
    void everyMutableFieldOfEveryComponentIsDescribed() throws Exception {
        List<String> problems = new ArrayList<>();
        Set<Class<?>> mappersSeen = new TreeSet<>((a, b) -> a.getName().compareTo(b.getName()));
        boolean cpuChecked = false;
        for (int number = 0; number < 256; number++) {
            for (boolean chrRam : new boolean[] {false, true}) {
                Cartridge cart = new Cartridge("mapper" + number + ".nes", new byte[512 * 1024],
                        chrRam ? new byte[0] : new byte[256 * 1024], number, Mirroring.HORIZONTAL, false, 8192,
                        chrRam ? 8192 : 0);
                Console console;
                try {
                    console = Console.create(cart);
                } catch (RomFormatException e) {
                    continue; // unsupported mapper number
                }
                mappersSeen.add(console.mapper().getClass());
                // The console's own components are the same for every cartridge: check them once.
                check(console, cart, problems, !cpuChecked);
                cpuChecked = true;
            }
        }
        for (Class<?> c : concreteMapperClasses()) {
            if (!mappersSeen.contains(c)) {
                problems.add(c.getName() + ": no mapper number builds it, so its description cannot be checked");
            }
        }
        assertTrue(problems.isEmpty(), "state descriptions are incomplete:\n  " + String.join("\n  ",
                new TreeSet<>(problems)));
    }

    private static boolean same(List<StateEntry> a, List<StateEntry> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).path().equals(b.get(i).path()) || !a.get(i).sameValue(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static void check(Console console, Cartridge cart, List<String> problems, boolean all)
            throws IllegalAccessException {
        Describer d = new Describer();
        console.state(d);
        Map<Object, String> components = new IdentityHashMap<>();
        components.put(console, "console");
        for (Describer.Visited v : d.visited()) {
            components.put(v.component(), v.path());
        }
        Map<Object, Boolean> seen = new IdentityHashMap<>();
        // In visiting order (not the identity map's order, which changes from run to run), so
        // every run checks the fields in the same order and a result never depends on the run.
        List<Object> order = new ArrayList<>();
        order.add(console);
        for (Describer.Visited v : d.visited()) {
            order.add(v.component());
        }
        for (Object c : order) {
            if (all || c == console.mapper()) {
                checkObject(c, components.get(c), console, cart, components, seen, problems);
            }
        }
    }

    private static void checkObject(Object obj, String where, Console root, Cartridge cart,
                                    Map<Object, String> components, Map<Object, Boolean> seen,
                                    List<String> problems) throws IllegalAccessException {
        if (seen.put(obj, Boolean.TRUE) != null) {
            return;
        }
        for (Class<?> c = obj.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                int mod = f.getModifiers();
                if (Modifier.isStatic(mod) || f.isSynthetic() || ALLOWED.containsKey(c.getSimpleName() + "." + f.getName())) {
                    continue;
                }
                f.setAccessible(true);
                Object value = f.get(obj);
                String name = c.getName() + "." + f.getName() + " (in '" + where + "')";
                Class<?> t = f.getType();
                boolean fin = Modifier.isFinal(mod);
                if (t.isPrimitive() || t.isEnum()) {
                    if (fin) {
                        continue;
                    }
                    Object changed = perturbed(t, value);
                    if (changed == null) {
                        continue; // an enum with one constant
                    }
                    List<StateEntry> before = Describer.describe(root);
                    f.set(obj, changed);
                    boolean described = !same(before, Describer.describe(root));
                    f.set(obj, value);
                    if (!described) {
                        problems.add(name + ": not described (changing it leaves the description unchanged)");
                    }
                } else if (value == null || t == String.class || value == cart || components.containsKey(value)) {
                    continue;
                } else if (value instanceof Memory m) {
                    if (m.size() == 0) {
                        continue;
                    }
                    List<StateEntry> before = Describer.describe(root);
                    int old = m.read(0);
                    m.write(0, old ^ 1);
                    boolean described = !same(before, Describer.describe(root));
                    m.write(0, old);
                    if (!described) {
                        problems.add(name + ": memory '" + m.name() + "' not described");
                    }
                } else if (t.isArray()) {
                    if (value == cart.prg() || value == cart.chr() || java.lang.reflect.Array.getLength(value) == 0) {
                        continue;
                    }
                    List<StateEntry> before = Describer.describe(root);
                    Object old = java.lang.reflect.Array.get(value, 0);
                    java.lang.reflect.Array.set(value, 0, perturbed(t.getComponentType(), old));
                    boolean described = !same(before, Describer.describe(root));
                    java.lang.reflect.Array.set(value, 0, old);
                    if (!described) {
                        problems.add(name + ": array not described (changing element 0 leaves the description unchanged)");
                    }
                } else if (value.getClass().getName().startsWith("lockstep.nes.")) {
                    checkObject(value, where + "." + f.getName(), root, cart, components, seen, problems);
                } else if (!fin) {
                    problems.add(name + ": field of type " + t.getName() + " cannot be checked");
                }
            }
        }
    }

    /** A different value of the same type (null if there is none). */
    private static Object perturbed(Class<?> t, Object v) {
        if (t == int.class) {
            return (Integer) v ^ 1;
        } else if (t == long.class) {
            return (Long) v ^ 1L;
        } else if (t == boolean.class) {
            return !(Boolean) v;
        } else if (t == byte.class) {
            return (byte) ((Byte) v ^ 1);
        } else if (t == short.class) {
            return (short) ((Short) v ^ 1);
        } else if (t == char.class) {
            return (char) ((Character) v ^ 1);
        } else if (t.isEnum()) {
            Object[] all = t.getEnumConstants();
            if (all.length < 2) {
                return null;
            }
            return all[0] == v ? all[1] : all[0];
        }
        throw new AssertionError("cannot perturb " + t);
    }

    /** Concrete Mapper subclasses compiled into the cart package (directory or jar). */
    private static List<Class<?>> concreteMapperClasses() throws Exception {
        URI location = Mapper.class.getProtectionDomain().getCodeSource().getLocation().toURI();
        Path base = Path.of(location);
        List<Class<?>> out = new ArrayList<>();
        if (Files.isDirectory(base)) {
            collect(base, base.resolve("lockstep/nes/core/cart"), out);
        } else {
            try (FileSystem fs = FileSystems.newFileSystem(base)) {
                Path root = fs.getPath("/");
                collect(root, root.resolve("lockstep/nes/core/cart"), out);
            }
        }
        assertTrue(out.contains(lockstep.nes.core.cart.Nrom.class), "class scan found " + out);
        return out;
    }

    private static void collect(Path root, Path dir, List<Class<?>> out) throws IOException, ClassNotFoundException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(x -> x.toString().endsWith(".class")).sorted().toList()) {
                String name = root.relativize(p).toString().replace('/', '.').replace('\\', '.');
                name = name.substring(0, name.length() - ".class".length());
                Class<?> c = Class.forName(name, false, Mapper.class.getClassLoader());
                if (Mapper.class.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers())) {
                    out.add(c);
                }
            }
        }
    }
}
