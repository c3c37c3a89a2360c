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
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
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
            throw new IllegalArgumentException(name + ": " + plain(e)
                    + (e.getLocation() != null && e.getLocation().getLineNr() > 0
                        ? " (line " + e.getLocation().getLineNr() + ")" : ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (f == null) {
            throw new IllegalArgumentException(name + ": empty (not a manifest: it should be {\"roms\": [...]})");
        }
        if (f.roms() == null || f.roms().isEmpty()) {
            // A manifest that lists nothing would run nothing and pass.
            throw new IllegalArgumentException(name + ": lists no ROMs (\"roms\" is " + (f.roms() == null ? "missing" : "empty")
                    + ")");
        }
        try {
            return new Manifest(f.comment(), f.roms());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        }
    }

    /**
     * What is wrong with the JSON, in the manifest's own words (a field's path and the kind of
     * value it takes), never the Java types it is read into.
     */
    static String plain(JsonProcessingException e) {
        List<JsonMappingException.Reference> refs = e instanceof JsonMappingException m ? m.getPath() : List.of();
        String where = path(refs);
        if (e instanceof UnrecognizedPropertyException u) {
            String parent = path(refs.subList(0, Math.max(0, refs.size() - 1)));
            return "unknown field \"" + u.getPropertyName() + "\"" + (parent.isEmpty() ? "" : " in " + parent)
                    + (u.getKnownPropertyIds() == null ? "" : " (known fields: " + u.getKnownPropertyIds().stream()
                        .map(Object::toString).sorted().collect(Collectors.joining(", ")) + ")");
        }
        if (e instanceof MismatchedInputException m) {
            if (m.getOriginalMessage() != null && m.getOriginalMessage().startsWith("No content")) {
                return "empty (not a manifest: it should be {\"roms\": [...]})";
            }
            if (m.getOriginalMessage() != null && m.getOriginalMessage().startsWith("Missing required creator property")) {
                String field = m.getOriginalMessage().replaceFirst("^Missing required creator property '([^']*)'.*$", "$1");
                List<JsonMappingException.Reference> in = !refs.isEmpty() && field.equals(refs.get(refs.size() - 1).getFieldName())
                        ? refs.subList(0, refs.size() - 1) : refs;
                return "missing field \"" + field + "\"" + (in.isEmpty() ? "" : " in " + path(in));
            }
            return (where.isEmpty() ? "the file" : where) + " should be " + kind(m.getTargetType());
        }
        if (e.getCause() instanceof IllegalArgumentException own) {
            // A value the manifest's own types refused (an unknown family): their words.
            return (where.isEmpty() ? "" : where + ": ") + own.getMessage();
        }
        JsonProcessingException syntax = e instanceof JsonParseException ? e
                : e.getCause() instanceof JsonParseException p ? p : null;
        if (syntax != null) {
            // The parser's own words name characters and tokens; where it read from is left out.
            String words = syntax.getOriginalMessage().lines().findFirst().orElse("");
            for (String tail : new String[] {" (start marker at", " [Source:", " at [Source"}) {
                int at = words.indexOf(tail);
                if (at > 0) {
                    words = words.substring(0, at);
                }
            }
            return "not valid JSON: " + words;
        }
        return "not a manifest (" + (where.isEmpty() ? "" : where + ": ") + "unexpected value)";
    }

    /** "roms[3].frames" for Jackson's reference path. */
    private static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) {
                sb.append(sb.length() == 0 ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    /** The kind of JSON value a field of {@code type} takes. */
    private static String kind(Class<?> type) {
        if (type == null) {
            return "another kind of value";
        }
        if (type.isEnum()) {
            List<String> names = new ArrayList<>();
            for (Object c : type.getEnumConstants()) {
                try {
                    names.add(JSON.writeValueAsString(c));
                } catch (JsonProcessingException ex) {
                    names.add(c.toString());
                }
            }
            return "one of " + String.join(", ", names);
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list [...]";
        }
        return "an object {...}";
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
