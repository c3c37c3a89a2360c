package lockstep.nes.core.cart;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The boards, for tests that check every one: found on the class path, and built by mapper number. */
public final class BoardClasses {
    private BoardClasses() {
    }

    /** Every concrete {@link Mapper} subclass in the cart package and its subpackages, by name. */
    public static List<Class<?>> concrete() throws Exception {
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

    /**
     * One board of each class {@link Mappers#create} builds for mapper numbers 0-255, with
     * CHR-ROM and with CHR-RAM (the first built of each class), by class name.
     */
    public static TreeMap<String, Mapper> built() {
        TreeMap<String, Mapper> out = new TreeMap<>();
        for (int number = 0; number < 256; number++) {
            for (boolean chrRam : new boolean[] {false, true}) {
                Cartridge cart = new Cartridge("mapper" + number + ".nes", new byte[512 * 1024],
                        chrRam ? new byte[0] : new byte[256 * 1024], number, Mirroring.HORIZONTAL, false, 8192,
                        chrRam ? 8192 : 0);
                try {
                    Mapper board = Mappers.create(cart);
                    out.putIfAbsent(board.getClass().getName(), board);
                } catch (RomFormatException e) {
                    // unsupported mapper number
                }
            }
        }
        return out;
    }
}
