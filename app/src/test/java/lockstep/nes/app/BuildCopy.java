package lockstep.nes.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds an engine-host jar from a copy of this repository's sources (optionally patched), the
 * way a second build of the project would: the main sources of state, ppu, emulator-core, verifier and
 * app are copied, one file may be patched, and javac compiles the engine host's entry point with
 * everything it references from the copied sources (never from this build's classes).
 */
final class BuildCopy {
    static final String[] MODULES = {"state", "ppu", "emulator-core", "verifier", "app"};
    static final String CPU = "emulator-core/src/main/java/lockstep/nes/core/cpu/Cpu.java";

    private BuildCopy() {
    }

    /** The repository root (the parent pom sets lockstep.root for tests). */
    static Path root() {
        String p = System.getProperty("lockstep.root");
        if (p != null && !p.isBlank() && Files.isDirectory(Path.of(p, "emulator-core"))) {
            return Path.of(p);
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("emulator-core")) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return d;
            }
        }
        throw new IllegalStateException("repository root not found");
    }

    /**
     * Copies the sources to {@code work/name}, applies {@code patch} to {@code file} (which must
     * change it), compiles and returns {@code work/name.jar}.
     */
    static Path build(Path work, String name, String file, UnaryOperator<String> patch) throws IOException {
        return build(work, name, file == null ? Map.of() : Map.of(file, patch));
    }

    /** As {@link #build(Path, String, String, UnaryOperator)} with several patched files. */
    static Path build(Path work, String name, Map<String, UnaryOperator<String>> patches) throws IOException {
        Path root = root();
        Path src = work.resolve(name + "-src");
        for (String m : MODULES) {
            copyTree(root.resolve(m).resolve("src/main"), src.resolve(m).resolve("src/main"));
        }
        for (Map.Entry<String, UnaryOperator<String>> e : new java.util.TreeMap<>(patches).entrySet()) {
            Path f = src.resolve(e.getKey());
            String before = Files.readString(f);
            String after = e.getValue().apply(before);
            if (after.equals(before)) {
                throw new IllegalStateException("patch of " + e.getKey() + " changed nothing");
            }
            Files.writeString(f, after);
        }
        List<String> sourcepath = new ArrayList<>();
        for (String m : MODULES) {
            sourcepath.add(src.resolve(m).resolve("src/main/java").toString());
        }
        Path classes = work.resolve(name + "-classes");
        Files.createDirectories(classes);
        compile(classes, String.join(java.io.File.pathSeparator, sourcepath),
                src.resolve("app/src/main/java/lockstep/nes/app/EngineHostMain.java"));
        for (String m : MODULES) {
            Path res = src.resolve(m).resolve("src/main/resources");
            if (Files.isDirectory(res)) {
                copyTree(res, classes);
            }
        }
        Path jar = work.resolve(name + ".jar");
        jar(classes, jar);
        return jar;
    }

    /** Compiles one standalone source (a fake host) into {@code work/name.jar}. */
    static Path buildSingle(Path work, String name, String className, String source) throws IOException {
        Path src = work.resolve(name + "-src");
        Path file = src.resolve(className.replace('.', '/') + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source);
        Path classes = work.resolve(name + "-classes");
        Files.createDirectories(classes);
        compile(classes, src.toString(), file);
        Path jar = work.resolve(name + ".jar");
        jar(classes, jar);
        return jar;
    }

    private static void compile(Path classes, String sourcepath, Path main) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-sourcepath", sourcepath,
                "-implicit:class", "-proc:none", "-nowarn", "-Xlint:none", "--release", "17", "-encoding", "UTF-8"));
        String deps = thirdPartyJars();
        if (!deps.isEmpty()) {
            args.add("-cp");
            args.add(deps);
        }
        args.add(main.toString());
        int rc = javac.run(null, log, log, args.toArray(String[]::new));
        if (rc != 0) {
            throw new IllegalStateException("javac failed for " + main + ":\n" + log.toString(StandardCharsets.UTF_8));
        }
    }

    /** The test class path's library jars (never this project's own classes). */
    private static String thirdPartyJars() {
        List<String> out = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (e.endsWith(".jar") && !e.replace('\\', '/').contains("/lockstep/nes/")) {
                out.add(e);
            }
        }
        return String.join(java.io.File.pathSeparator, out);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.createDirectories(t.getParent());
                    Files.copy(p, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void jar(Path classes, Path jar) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(os, mf);
             Stream<Path> s = Files.walk(classes)) {
            for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                if (Files.isRegularFile(p)) {
                    j.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
                    Files.copy(p, j);
                    j.closeEntry();
                }
            }
        }
    }
}
