package lockstep.nes.core.state;

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
 * (CPU, PPU, APU and its units, DMA, controllers, the mapper), every instance field of the
 * class and its superclasses must be described under that section:
 * <ul>
 * <li>a non-final field by its own name;</li>
 * <li>a final {@link Memory} by the memory's name; a final array by the field's name (unless it
 * is the cartridge's ROM data);</li>
 * <li>a final reference to a {@link Stateful} must point at a component that is visited (or at
 * the console: back-references such as {@code Dma.console});</li>
 * <li>a reference to any other project class that has non-final fields is an error (make it
 * Stateful and visit it).</li>
 * </ul>
 * Every Mapper subclass that {@code Cartridge.createMapper} can build (mapper numbers 0-255,
 * with CHR-ROM and with CHR-RAM) is checked, and every concrete Mapper subclass in the cart
 * package must be reachable that way.
 */
class DescriptionCoverageTest {

    /**
     * Fields that are deliberately not described, each with its reason. Keys are
     * {@code declaringClass.simpleName + "." + field}.
     */
    private static final Map<String, String> ALLOWED = Map.of(
            // Video output: rewritten every frame from the described state, not an input to it.
            "Ppu.frame", "picture output buffer",
            // Audio output: samples produced from the described state, never read back by it.
            "Apu.audio", "audio sample sink");

    @Test
    void everyMutableFieldOfEveryComponentIsDescribed() throws Exception {
        List<String> problems = new ArrayList<>();
        Set<Class<?>> mappersSeen = new TreeSet<>((a, b) -> a.getName().compareTo(b.getName()));
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
                check(console, cart, problems);
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

    private static void check(Console console, Cartridge cart, List<String> problems) throws IllegalAccessException {
        Describer d = new Describer();
        console.state(d);
        Map<Object, String> visited = new IdentityHashMap<>();
        for (Describer.Visited v : d.visited()) {
            visited.put(v.component(), v.path());
        }
        // The console's own fields live in its top-level sections that are not components.
        Set<String> consoleNames = new TreeSet<>();
        for (StateEntry e : d.entries()) {
            String p = e.path();
            int dot = p.indexOf('.');
            if (dot > 0 && p.indexOf('.', dot + 1) < 0 && !isComponentPath(p.substring(0, dot), d)) {
                consoleNames.add(p.substring(dot + 1));
            }
        }
        checkObject(console, "console", consoleNames, visited, console, cart, problems);
        for (Describer.Visited v : d.visited()) {
            Set<String> names = new TreeSet<>();
            String prefix = v.path() + ".";
            for (StateEntry e : d.entries()) {
                String p = e.path();
                if (p.startsWith(prefix) && p.indexOf('.', prefix.length()) < 0) {
                    names.add(p.substring(prefix.length()));
                }
            }
            checkObject(v.component(), v.path(), names, visited, console, cart, problems);
        }
    }

    private static boolean isComponentPath(String path, Describer d) {
        for (Describer.Visited v : d.visited()) {
            if (v.path().equals(path)) {
                return true;
            }
        }
        return false;
    }

    private static void checkObject(Object obj, String section, Set<String> names, Map<Object, String> visited,
                                    Console root, Cartridge cart, List<String> problems) throws IllegalAccessException {
        for (Class<?> c = obj.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                int mod = f.getModifiers();
                if (Modifier.isStatic(mod) || f.isSynthetic()) {
                    continue;
                }
                String key = c.getSimpleName() + "." + f.getName();
                if (ALLOWED.containsKey(key)) {
                    continue;
                }
                f.setAccessible(true);
                Object value = f.get(obj);
                String where = c.getName() + "." + f.getName() + " (section '" + section + "')";
                Class<?> t = f.getType();
                if (!Modifier.isFinal(mod)) {
                    if (!names.contains(f.getName())) {
                        problems.add(where + ": mutable field not described");
                    }
                    continue;
                }
                if (value == null || t.isPrimitive() || t == String.class || t.isEnum()) {
                    continue;
                }
                if (value instanceof Memory m) {
                    if (!names.contains(m.name())) {
                        problems.add(where + ": memory '" + m.name() + "' not described");
                    }
                } else if (t.isArray()) {
                    if (value == cart.prg() || value == cart.chr()) {
                        continue; // ROM data, identified by the snapshot's ROM hash
                    }
                    if (!names.contains(f.getName())) {
                        problems.add(where + ": array not described");
                    }
                } else if (value instanceof Stateful) {
                    if (value != root && !visited.containsKey(value)) {
                        problems.add(where + ": component " + value.getClass().getSimpleName()
                                + " is not visited through StateVisitor.section");
                    }
                } else if (value.getClass().getName().startsWith("lockstep.nes.") && hasMutableFields(value.getClass())) {
                    problems.add(where + ": holds mutable " + value.getClass().getSimpleName()
                            + ", which is not Stateful");
                }
            }
        }
    }

    private static boolean hasMutableFields(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                int mod = f.getModifiers();
                if (!Modifier.isStatic(mod) && !Modifier.isFinal(mod)) {
                    return true;
                }
            }
        }
        return false;
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
