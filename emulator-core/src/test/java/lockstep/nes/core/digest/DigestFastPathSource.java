package lockstep.nes.core.digest;

import lockstep.nes.state.DigestKeys;

import lockstep.nes.state.Describer;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.state.Memory;
import lockstep.nes.state.StateVisitor;
import lockstep.nes.state.Stateful;

/**
 * Prints the Java source of a {@code digestTerm()} fast path for each component of the demo
 * console, following {@link lockstep.nes.state.DigestTerm}'s packing (a maintainer's aid when a
 * component's description changes; it assumes field names equal described names, so review the
 * output). Run: {@code java -cp ppu/target/classes:emulator-core/target/classes:emulator-core/target/test-classes
 * lockstep.nes.core.digest.DigestFastPathSource}.
 */
public final class DigestFastPathSource implements StateVisitor {
    private final List<String> terms = new ArrayList<>();
    private final List<String> current = new ArrayList<>();
    private int bits;
    private int depth;
    private int words;

    public static void main(String[] args) throws Exception {
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        Describer d = new Describer();
        c.state(d);
        System.out.println("// console (root)\n" + source(c));
        for (Describer.Visited v : d.visited()) {
            System.out.println("// " + v.path() + " (" + v.component().getClass().getSimpleName() + ")");
            System.out.println(source((Stateful) v.component()));
        }
    }

    static String source(Stateful component) {
        DigestFastPathSource g = new DigestFastPathSource();
        component.state(g);
        g.flush();
        return "return " + String.join("\n        + ", g.terms) + ";\n";
    }

    private void flush() {
        if (bits > 0) {
            terms.add("W" + words++ + " * (" + String.join("\n            | ", current) + ")");
            current.clear();
            bits = 0;
        }
    }

    private void pack(String expr, int width) {
        if (depth > 0) {
            return;
        }
        if (bits + width > 64) {
            flush();
        }
        // Earlier values end up higher: shift every packed value left by this width.
        for (int i = 0; i < current.size(); i++) {
            current.set(i, shiftMore(current.get(i), width));
        }
        current.add(expr);
        bits += width;
    }

    private static String shiftMore(String e, int width) {
        int at = e.lastIndexOf(" << ");
        if (at >= 0 && e.startsWith("(") ) {
            int s = Integer.parseInt(e.substring(at + 4, e.length() - 1));
            return e.substring(0, at) + " << " + (s + width) + ")";
        }
        return "(" + e + " << " + width + ")";
    }

    private void word(String expr) {
        if (depth > 0) {
            return;
        }
        flush();
        terms.add("W" + words++ + " * " + expr);
    }

    @Override
    public void beginSection(String name) {
        if (depth++ == 0) {
            terms.add("S_" + name.toUpperCase() + " * " + name + ".digestTerm()");
        }
    }

    @Override
    public void endSection() {
        depth--;
    }

    @Override public boolean bool(String n, boolean v) { pack("DigestKeys.b(" + n + ")", 1); return v; }
    @Override public int u8(String n, int v) { pack("(" + n + " & 0xFFL)", 8); return v; }
    @Override public int u16(String n, int v) { pack("(" + n + " & 0xFFFFL)", 16); return v; }
    @Override public int i32(String n, int v) { pack("(" + n + " & 0xFFFFFFFFL)", 32); return v; }
    @Override public long i64(String n, long v) { word(n); return v; }

    @Override
    public void bytes(String n, byte[] a) {
        if (depth > 0) {
            return;
        }
        flush();
        for (int i = 0; i + 8 <= a.length; i += 8) {
            word("(long) LONGS.get(" + n + ", " + i + ")");
        }
        for (int i = a.length & ~7; i < a.length; i++) {
            pack("(" + n + "[" + i + "] & 0xFFL)", 8);
        }
        flush();
    }

    @Override
    public void ints(String n, int[] a) {
        if (depth > 0) {
            return;
        }
        flush();
        for (int i = 0; i < a.length; i++) {
            word(n + "[" + i + "]");
        }
    }

    @Override
    public void memory(Memory m) {
        word(m.name() + ".hash()");
    }
}
