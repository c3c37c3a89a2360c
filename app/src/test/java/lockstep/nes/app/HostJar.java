package lockstep.nes.app;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import lockstep.nes.verifier.host.HostProtocol;

/**
 * An engine-host jar of this build without building one: the host's entry point, and a manifest
 * whose Class-Path names this test run's class path (its folders and jars), which the JVM follows.
 */
final class HostJar {
    private HostJar() {
    }

    static Path make(Path dir) throws IOException {
        Path jar = dir.resolve("host.jar");
        List<String> urls = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(e).toAbsolutePath();
            String uri = p.toUri().toString();
            urls.add(Files.isDirectory(p) && !uri.endsWith("/") ? uri + "/" : uri);
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", urls));
        String entry = HostProtocol.MAIN_CLASS.replace('.', '/') + ".class";
        try (OutputStream f = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(f, m);
             InputStream cls = HostJar.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            cls.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }
}
