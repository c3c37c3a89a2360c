package lockstep.nes.core.snapshot;

import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.Describer;
import lockstep.nes.state.StateEntry;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.BoardClasses;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.state.Memory;
import lockstep.nes.state.NotState;
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
 * <p>A field marked {@link NotState} (an output, a cache, bookkeeping empty between cycles) is
 * left out, with the reason on the field.
 *
 * <p>Every Mapper subclass that {@code Cartridge.createMapper} can build (mapper numbers 0-255,
 * with CHR-ROM and with CHR-RAM) is checked, and every concrete Mapper subclass in the cart
 * package must be reachable that way.
 */
class DescriptionCoverageTest {

    @Test
    void everyMutableFieldOfEveryComponentIsDescribed() throws Exception {
        List<String> problems = new ArrayList<>();
        Set<Class<?>> mappersSeen = new TreeSet<>((a, b) -> a.getName().compareTo(b.getName()));
        boolean cpuChecked = false;
        for (Console console : EveryBoard.consoles()) {
            mappersSeen.add(console.mapper().getClass());
            // The console's own components are the same for every cartridge: check them once.
            check(console, console.cartridge(), problems, !cpuChecked);
            cpuChecked = true;
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
                if (Modifier.isStatic(mod) || f.isSynthetic() || f.isAnnotationPresent(NotState.class)) {
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
        List<Class<?>> out = BoardClasses.concrete();
        assertTrue(out.contains(lockstep.nes.core.cart.nintendo.Nrom.class), "class scan found " + out);
        return out;
    }
}
