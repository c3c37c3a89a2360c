package lockstep.nes.roms;

import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import lockstep.nes.core.AtomicFile;

/** The results of a run: the console lines, the closing count and the --json file. */
public final class Report {
    @JsonPropertyOrder({"rom", "status", "code", "message", "frames"})
    record Row(@JsonProperty("rom") String rom, @JsonProperty("status") Status status,
               @JsonProperty("code") Integer code, @JsonProperty("message") String message,
               @JsonProperty("frames") int frames) {
    }

    @JsonPropertyOrder({"results", "passed", "failed"})
    record Json(@JsonProperty("results") List<Row> results, @JsonProperty("passed") int passed,
                @JsonProperty("failed") int failed) {
    }

    private Report() {
    }

    public static int passed(List<RomResult> results) {
        int n = 0;
        for (RomResult r : results) {
            if (r.passed()) {
                n++;
            }
        }
        return n;
    }

    /** Everything that did not pass (fail, timeout, error), expected or not. */
    public static int failed(List<RomResult> results) {
        return results.size() - passed(results);
    }

    /** The closing line: exactly "N passed, N failed". */
    public static String summary(List<RomResult> results) {
        return passed(results) + " passed, " + failed(results) + " failed";
    }

    /** True when every ROM the manifest expects to pass passed. */
    public static boolean expectationsMet(List<RomResult> results) {
        for (RomResult r : results) {
            if (r.entry().expect() == Expect.PASS && !r.passed()) {
                return false;
            }
        }
        return true;
    }

    /**
     * One line per ROM: status, code, the ROM's path and its text on one line, plus a marker
     * when the outcome differs from the manifest ("[expected pass]", "[now passes: update the
     * manifest]") or matches an expected failure ("[known-fail]"/"[expected fail]").
     */
    public static String line(RomResult r) {
        String code = r.code() == null ? "-" : String.valueOf(r.code());
        String mark = "";
        Expect ex = r.entry().expect();
        if (ex == Expect.PASS && !r.passed()) {
            mark = "  [expected pass]";
        } else if (ex != Expect.PASS && r.passed()) {
            mark = "  [" + ex.id() + " now passes: update the manifest]";
        } else if (ex != Expect.PASS) {
            mark = "  [" + ex.id() + "]";
        }
        return String.format(Locale.ROOT, "%-7s %-4s %s: %s%s", r.status().id(), code, r.rom(),
                r.oneLineMessage(), mark);
    }

    public static String json(List<RomResult> results) {
        List<Row> rows = new ArrayList<>(results.size());
        for (RomResult r : results) {
            rows.add(new Row(r.rom(), r.status(), r.code(), r.message() == null ? "" : r.message(), r.frames()));
        }
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(new Json(rows, passed(results), failed(results))) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@link #json} to {@code file} atomically. */
    public static void writeJson(List<RomResult> results, Path file) throws IOException {
        AtomicFile.writeCreatingFolder(file, json(results).getBytes(StandardCharsets.UTF_8));
    }
}
