package lockstep.nes.app;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/**
 * Help wrapped at spaces only. Picocli wraps where a line-break iterator allows, which splits a
 * path, a URL or an option value ({@code ../shared/roms}, {@code redis://host:port},
 * {@code builtin:demo}) across lines; here picocli lays each section out unwrapped and the
 * lines longer than the width are broken at their last space that fits, continuing at the
 * column their text started (option and command descriptions 2 further, as picocli does).
 */
final class HelpText {
    static final int WIDTH = 80;
    /** Wide enough that picocli wraps nothing itself. */
    private static final int UNWRAPPED = 10_000;

    private HelpText() {
    }

    /** Installs the wrapping on {@code cl} and every subcommand below it. */
    static void install(CommandLine cl) {
        cl.setUsageHelpWidth(UNWRAPPED);
        installSections(cl);
    }

    private static void installSections(CommandLine cl) {
        Map<String, CommandLine.IHelpSectionRenderer> wrapped = new LinkedHashMap<>();
        for (Map.Entry<String, CommandLine.IHelpSectionRenderer> e : cl.getHelpSectionMap().entrySet()) {
            CommandLine.IHelpSectionRenderer r = e.getValue();
            // The synopsis follows its heading ("Usage: ") on the same line.
            int offset = e.getKey().equals(CommandLine.Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS) ? 7 : 0;
            boolean last = e.getKey().equals(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER);
            wrapped.put(e.getKey(), help -> {
                String text = wrap(r.render(help), WIDTH, offset);
                return last && !text.isEmpty() && !text.endsWith("\n") ? text + "\n" : text;
            });
        }
        cl.setHelpSectionMap(wrapped);
        for (CommandLine sub : cl.getSubcommands().values()) {
            installSections(sub);
        }
    }

    /**
     * {@code text} (one help section, starting {@code offset} columns into its first line) with
     * every line longer than {@code width} broken at spaces.
     */
    static String wrap(String text, int width, int offset) {
        String[] lines = (" ".repeat(offset) + text).split("\n", -1);
        int column = descriptionColumn(lines);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) {
                out.append('\n');
            }
            wrapLine(lines[i], width, continuation(lines[i], column, i == 0 && offset > 0), out);
        }
        return out.substring(offset);
    }

    private static void wrapLine(String line, int width, int indent, StringBuilder out) {
        String rest = line.stripTrailing();
        if (rest.length() <= width) {
            out.append(line);
            return;
        }
        String pad = " ".repeat(indent);
        boolean first = true;
        while (true) {
            String head = first ? "" : pad;
            String body = first ? rest : rest.stripLeading();
            if (head.length() + body.length() <= width) {
                out.append(head).append(body);
                return;
            }
            int start = first ? body.length() - body.stripLeading().length() : 0;
            int cut = body.lastIndexOf(' ', width - head.length());
            if (cut <= start) {
                cut = body.indexOf(' ', Math.max(start, width - head.length())); // a token longer than the line
                if (cut < 0) {
                    out.append(head).append(body);
                    return;
                }
            }
            out.append(head).append(body, 0, cut).append('\n');
            rest = body.substring(cut + 1);
            first = false;
        }
    }

    /**
     * The column where the descriptions of an option or command list start: the most common
     * end of a gap of 2 or more spaces after an indented label; -1 in a section without rows.
     */
    private static int descriptionColumn(String[] lines) {
        Map<Integer, Integer> votes = new java.util.TreeMap<>();
        for (String line : lines) {
            int lead = line.length() - line.stripLeading().length();
            int gap = lead > 0 && lead < line.length() ? line.indexOf("  ", lead) : -1;
            if (gap > 0) {
                int column = gap;
                while (column < line.length() && line.charAt(column) == ' ') {
                    column++;
                }
                if (column < line.length()) {
                    votes.merge(column, 1, Integer::sum);
                }
            }
        }
        int best = -1;
        int most = 0;
        for (Map.Entry<Integer, Integer> v : votes.entrySet()) {
            if (v.getValue() > most) {
                best = v.getKey();
                most = v.getValue();
            }
        }
        return best;
    }

    /**
     * Where a wrapped line continues: after the command name for a synopsis; 2 past the
     * description column for an indented row of a list (as picocli does); else at the line's
     * own indentation.
     */
    private static int continuation(String line, int column, boolean synopsis) {
        int lead = line.length() - line.stripLeading().length();
        if (synopsis) {
            int bracket = line.indexOf(" [");
            return bracket > 0 ? bracket + 1 : lead;
        }
        return lead > 0 && column > 0 ? column + 2 : lead;
    }
}
