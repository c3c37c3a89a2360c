package lockstep.nes.roms;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The list of test ROMs the project runs (manifest.json next to this class), in file order.
 * Unknown fields are errors, so a typo in the manifest cannot silently drop a check.
 */
public final class Manifest {
    /** The built-in manifest's resource name. */
    public static final String RESOURCE = "/lockstep/nes/roms/manifest.json";

    /** The file's shape: an optional comment and the entries. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record File(@JsonProperty("comment") List<String> comment,
                @JsonProperty(value = "roms", required = true) List<RomEntry> roms) {
    }

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private final List<String> comment;
    private final List<RomEntry> entries;
    private final Map<String, RomEntry> byRom = new LinkedHashMap<>();

    private Manifest(List<String> comment, List<RomEntry> entries) {
        this.comment = comment;
        this.entries = List.copyOf(entries);
        for (RomEntry e : this.entries) {
            e.validate();
            if (byRom.put(e.rom(), e) != null) {
                throw new IllegalArgumentException("manifest: " + e.rom() + " is listed twice");
            }
        }
    }

    /** The manifest built into roms-test. */
    public static Manifest builtIn() {
        try (InputStream in = Manifest.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return parse(in.readAllBytes(), RESOURCE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a manifest file; IllegalArgumentException (naming the file) when it is bad. */
    public static Manifest load(Path file) throws IOException {
        return parse(Files.readAllBytes(file), file.toString());
    }

    static Manifest parse(byte[] json, String name) {
        File f;
        try {
            f = JSON.readValue(json, File.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(name + ": " + e.getOriginalMessage()
                    + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ")" : ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return new Manifest(f.comment(), f.roms());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        }
    }

    public List<RomEntry> entries() {
        return entries;
    }

    /** The entry for a path under the roms dir ('/' separators), or null. */
    public RomEntry find(String rom) {
        return byRom.get(rom);
    }

    /** A copy with some entries replaced (matched by rom path). */
    public Manifest replace(Map<String, RomEntry> replacements) {
        List<RomEntry> out = new ArrayList<>(entries.size());
        for (RomEntry e : entries) {
            out.add(replacements.getOrDefault(e.rom(), e));
        }
        return new Manifest(comment, out);
    }

    /** The manifest as JSON text: the comment lines, then one entry per line, in order. */
    public String toJson() {
        ObjectMapper compact = JSON.copy().disable(SerializationFeature.INDENT_OUTPUT);
        try {
            StringBuilder sb = new StringBuilder("{\n");
            if (comment != null) {
                sb.append("  \"comment\": [\n");
                for (int i = 0; i < comment.size(); i++) {
                    sb.append("    ").append(compact.writeValueAsString(comment.get(i)))
                            .append(i + 1 < comment.size() ? ",\n" : "\n");
                }
                sb.append("  ],\n");
            }
            sb.append("  \"roms\": [\n");
            for (int i = 0; i < entries.size(); i++) {
                sb.append("    ").append(compact.writeValueAsString(entries.get(i)))
                        .append(i + 1 < entries.size() ? ",\n" : "\n");
            }
            return sb.append("  ]\n}\n").toString();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
