package lockstep.nes.verifier;

import java.util.List;

/** Processes mode's own settings (verify --mode processes): the engine hosts and their streams. */
public final class HostSettings {
    /** The ROM image the hosts load (processes mode needs the bytes, not just the cartridge). */
    public byte[] romImage;
    /** The console the hosts run the image on (null: the one its header names). */
    public lockstep.nes.ppu.Region region;
    /** The cheats both hosts run with (the cartridge's, {@code Cartridge#cheats}). */
    public List<lockstep.nes.core.cheat.Cheat> cheats = List.of();
    /** A disk image's BIOS as the command line gave it (null: each host's config folder's). */
    public byte[] fdsBios;
    /** A disk image's side at power-on as the command line gave it ("1B"; null: 1A). */
    public String diskSide;
    /** Class path of the engine-host JVMs (default: this JVM's class path, made absolute). */
    public String classpath;
    /** Their entry point (default: {@code HostProtocol.MAIN_CLASS}, in the app's jar). */
    public String mainClass = lockstep.nes.verifier.host.HostProtocol.MAIN_CLASS;
    /** The hosts' JVM options ({@link lockstep.nes.verifier.host.HostClient#JVM_OPTIONS}). */
    public List<String> jvmOptions = lockstep.nes.verifier.host.HostClient.JVM_OPTIONS;
    /** A host silent this long while it owes an answer is hung (it is killed and reported). */
    public long timeoutMillis = 60_000;
    /**
     * Cycles per RUN_STREAM request; two requests' worth of credit per host bounds the drift.
     * 0 (the default): {@link #CHAINED_STREAM_CHUNK} with chained records, else
     * {@link #CYCLE_STREAM_CHUNK} (why: docs/design/verification.md, "Processes mode").
     */
    public int streamChunk;
    /** The default request with chained records: over two NTSC frames, over one PAL or Dendy frame. */
    public static final int CHAINED_STREAM_CHUNK = 65_536;
    /** The default request with a digest per cycle. */
    public static final int CYCLE_STREAM_CHUNK = 1024;
    /** Digests per DIGESTS message (the granularity at which a host's progress is seen). */
    public int streamBatch = 64;

    /** The request length: {@link #streamChunk}, else the default for chained records or per-cycle digests. */
    public int streamChunk(boolean chained) {
        return streamChunk > 0 ? streamChunk : chained ? CHAINED_STREAM_CHUNK : CYCLE_STREAM_CHUNK;
    }

    /** The engine hosts' class path: {@link #classpath}, else this JVM's own, made absolute. */
    public String classpathOrOwn() {
        if (classpath != null) {
            return classpath;
        }
        StringBuilder sb = new StringBuilder();
        for (String e : System.getProperty("java.class.path", "").split(java.io.File.pathSeparator)) {
            if (e.isEmpty()) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append(java.io.File.pathSeparator);
            }
            sb.append(java.nio.file.Path.of(e).toAbsolutePath());
        }
        return sb.toString();
    }
}
