package lockstep.nes.core.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small two-pass assembler for the official 6502 instruction set, enough to write the demo
 * ROM in readable assembly.
 *
 * <p>Syntax, one statement per line:
 * <pre>
 *   ; comment (to the end of the line)
 *   label:                  defines label = the current address (may precede a statement)
 *   NAME = expr             defines a constant
 *   .org expr               sets the current address
 *   .res n                  reserves n bytes without emitting them (RAM variables)
 *   .byte expr|"text", ...  emits bytes (text as ASCII)
 *   .word expr, ...         emits little-endian words
 *   lda #expr               immediate
 *   lda expr / expr,x / expr,y        zero page when the value is known and &lt; $100, else absolute
 *   lda (expr,x) / (expr),y / jmp (expr)
 *   asl / asl a             accumulator
 *   bne label               relative (range checked)
 * </pre>
 * Expressions: {@code $hex}, {@code %binary}, decimal, {@code 'c'}, symbols, {@code *} (the
 * current address), {@code + - * /} (usual precedence, no parentheses); a leading {@code <} or {@code >} takes the low or
 * high byte of the whole expression that follows. Mnemonics and register names are
 * case-insensitive, symbols are case-sensitive.
 *
 * <p>Pass 1 assigns addresses; an operand whose value is not yet known there (a forward
 * reference) is given its absolute form, and pass 2 keeps every size chosen in pass 1.
 */
public final class Assembler {
    // Addressing modes (indices into the opcode rows).
    static final int IMP = 0;   // implied or accumulator
    static final int IMM = 1;
    static final int ZP = 2;
    static final int ZPX = 3;
    static final int ZPY = 4;
    static final int ABS = 5;
    static final int ABX = 6;
    static final int ABY = 7;
    static final int IZX = 8;
    static final int IZY = 9;
    static final int IND = 10;
    static final int REL = 11;
    private static final int MODES = 12;

    private static final TreeMap<String, int[]> OPCODES = new TreeMap<>();

    private static void op(String name, int... modeOpcodePairs) {
        int[] row = new int[MODES];
        java.util.Arrays.fill(row, -1);
        for (int i = 0; i < modeOpcodePairs.length; i += 2) {
            row[modeOpcodePairs[i]] = modeOpcodePairs[i + 1];
        }
        OPCODES.put(name, row);
    }

    static {
        // The eight-mode ALU group: imm, zp, zp,x, abs, abs,x, abs,y, (zp,x), (zp),y.
        String[] alu = {"ORA", "AND", "EOR", "ADC", "STA", "LDA", "CMP", "SBC"};
        for (int i = 0; i < alu.length; i++) {
            int base = i << 5 | 1;
            if (alu[i].equals("STA")) {
                op("STA", ZP, base + 4, ZPX, base + 0x14, ABS, base + 0x0C, ABX, base + 0x1C,
                        ABY, base + 0x18, IZX, base, IZY, base + 0x10);
            } else {
                op(alu[i], IMM, base + 8, ZP, base + 4, ZPX, base + 0x14, ABS, base + 0x0C,
                        ABX, base + 0x1C, ABY, base + 0x18, IZX, base, IZY, base + 0x10);
            }
        }
        // Shifts and rotates: accumulator, zp, zp,x, abs, abs,x.
        String[] shifts = {"ASL", "ROL", "LSR", "ROR"};
        for (int i = 0; i < shifts.length; i++) {
            int base = i << 5 | 2;
            op(shifts[i], IMP, base + 8, ZP, base + 4, ZPX, base + 0x14, ABS, base + 0x0C, ABX, base + 0x1C);
        }
        op("INC", ZP, 0xE6, ZPX, 0xF6, ABS, 0xEE, ABX, 0xFE);
        op("DEC", ZP, 0xC6, ZPX, 0xD6, ABS, 0xCE, ABX, 0xDE);
        op("LDX", IMM, 0xA2, ZP, 0xA6, ZPY, 0xB6, ABS, 0xAE, ABY, 0xBE);
        op("LDY", IMM, 0xA0, ZP, 0xA4, ZPX, 0xB4, ABS, 0xAC, ABX, 0xBC);
        op("STX", ZP, 0x86, ZPY, 0x96, ABS, 0x8E);
        op("STY", ZP, 0x84, ZPX, 0x94, ABS, 0x8C);
        op("CPX", IMM, 0xE0, ZP, 0xE4, ABS, 0xEC);
        op("CPY", IMM, 0xC0, ZP, 0xC4, ABS, 0xCC);
        op("BIT", ZP, 0x24, ABS, 0x2C);
        op("JMP", ABS, 0x4C, IND, 0x6C);
        op("JSR", ABS, 0x20);
        String[] branches = {"BPL", "BMI", "BVC", "BVS", "BCC", "BCS", "BNE", "BEQ"};
        for (int i = 0; i < branches.length; i++) {
            op(branches[i], REL, 0x10 + (i << 5));
        }
        String[] implied = {"BRK", "00", "RTI", "40", "RTS", "60", "PHP", "08", "PLP", "28", "PHA", "48",
            "PLA", "68", "CLC", "18", "SEC", "38", "CLI", "58", "SEI", "78", "CLV", "B8", "CLD", "D8",
            "SED", "F8", "TAX", "AA", "TXA", "8A", "TAY", "A8", "TYA", "98", "TSX", "BA", "TXS", "9A",
            "INX", "E8", "INY", "C8", "DEX", "CA", "DEY", "88", "NOP", "EA"};
        for (int i = 0; i < implied.length; i += 2) {
            op(implied[i], IMP, Integer.parseInt(implied[i + 1], 16));
        }
    }

    /** The opcode of {@code mnemonic} in {@code mode}, or -1 (for tests). */
    static int opcode(String mnemonic, int mode) {
        int[] row = OPCODES.get(mnemonic);
        return row == null ? -1 : row[mode];
    }

    /** Every mnemonic, sorted (for tests). */
    static String[] mnemonics() {
        return OPCODES.keySet().toArray(new String[0]);
    }

    private static final Pattern LABEL = Pattern.compile("^([A-Za-z_@][\\w@.]*):\\s*(.*)$");
    private static final Pattern CONSTANT = Pattern.compile("^([A-Za-z_@][\\w@.]*)\\s*=\\s*(.+)$");
    private static final Pattern IZX_OPERAND = Pattern.compile("^\\((.+),\\s*[xX]\\s*\\)$");
    private static final Pattern IZY_OPERAND = Pattern.compile("^\\((.+)\\)\\s*,\\s*[yY]$");
    private static final Pattern IND_OPERAND = Pattern.compile("^\\((.+)\\)$");
    private static final Pattern X_OPERAND = Pattern.compile("^(.+),\\s*[xX]$");
    private static final Pattern Y_OPERAND = Pattern.compile("^(.+),\\s*[yY]$");

    /** One parsed source line. */
    private record Statement(int line, String label, String constant, String op, String operand) {
    }

    private final List<Statement> statements = new ArrayList<>();
    private final TreeMap<String, Integer> symbols = new TreeMap<>();
    /** The addressing mode pass 1 chose for each statement (instructions only). */
    private int[] modes;
    /** The address at each statement in pass 1 (for '*' in constants resolved after it). */
    private int[] addresses;
    private int pass;
    private int pc;
    private byte[] out;
    private boolean[] written;
    /** Set by {@link #eval} in pass 1 when an operand uses a symbol not defined yet. */
    private boolean unknown;

    private Assembler() {
    }

    /** Assembles {@code source}; throws {@link AsmException} naming the line of the first error. */
    public static Program assemble(String source) {
        Assembler a = new Assembler();
        a.parse(source);
        a.modes = new int[a.statements.size()];
        a.addresses = new int[a.statements.size()];
        a.run(1);
        a.resolveConstants();
        a.out = new byte[0x10000];
        a.written = new boolean[0x10000];
        a.run(2);
        return new Program(a.out, a.written, a.symbols);
    }

    private void parse(String source) {
        String[] lines = source.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int line = i + 1;
            String text = stripComment(lines[i]).trim();
            String label = null;
            Matcher m = LABEL.matcher(text);
            if (m.matches()) {
                label = m.group(1);
                text = m.group(2).trim();
            }
            if (text.isEmpty()) {
                if (label != null) {
                    statements.add(new Statement(line, label, null, null, ""));
                }
                continue;
            }
            m = CONSTANT.matcher(text);
            if (m.matches()) {
                statements.add(new Statement(line, label, m.group(1), null, m.group(2).trim()));
                continue;
            }
            int space = indexOfWhitespace(text);
            String op = space < 0 ? text : text.substring(0, space);
            String operand = space < 0 ? "" : text.substring(space).trim();
            statements.add(new Statement(line, label, null, op.toUpperCase(Locale.ROOT), operand));
        }
    }

    private static int indexOfWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static String stripComment(String line) {
        final int semicolon = indexOutsideQuotes(line, ';', 0);
        return semicolon < 0 ? line : line.substring(0, semicolon);
    }

    /** The index of the first {@code c} from {@code from} on that is not inside a quoted string, or -1. */
    private static int indexOutsideQuotes(String text, char c, int from) {
        boolean quoted = false;
        char quote = 0;
        for (int i = from; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (quoted) {
                if (ch == quote) {
                    quoted = false;
                }
            } else if (ch == '"' || ch == '\'') {
                quoted = true;
                quote = ch;
            } else if (ch == c) {
                return i;
            }
        }
        return -1;
    }

    private void run(int pass) {
        this.pass = pass;
        pc = -1;
        for (int i = 0; i < statements.size(); i++) {
            Statement st = statements.get(i);
            addresses[i] = pc;
            if (st.label != null) {
                define(st, st.label, requirePc(st));
            }
            if (st.constant != null) {
                int value = eval(st.operand, st.line);
                if (!unknown) {
                    define(st, st.constant, value);
                }
            } else if (st.op != null) {
                if (st.op.startsWith(".")) {
                    directive(st);
                } else {
                    instruction(i, st);
                }
            }
        }
    }

    /**
     * Gives a value to the constants that pass 1 could not evaluate because they use later
     * labels (every label is known now), so that pass 2 can use them before their line.
     */
    private void resolveConstants() {
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int i = 0; i < statements.size(); i++) {
                Statement st = statements.get(i);
                if (st.constant != null && !symbols.containsKey(st.constant)) {
                    pc = addresses[i];
                    int value = eval(st.operand, st.line);
                    if (!unknown) {
                        symbols.put(st.constant, value);
                        progress = true;
                    }
                }
            }
        }
    }

    private void define(Statement st, String name, int value) {
        Integer old = symbols.get(name);
        if (pass == 1) {
            if (old != null) {
                throw new AsmException(st.line, "symbol '" + name + "' defined twice");
            }
            symbols.put(name, value);
        } else if (old == null || old != value) {
            throw new AsmException(st.line, "'" + name + "' moved between passes (internal error)");
        }
    }

    private int requirePc(Statement st) {
        if (pc < 0) {
            throw new AsmException(st.line, "no .org before the first label or statement");
        }
        return pc;
    }

    private void directive(Statement st) {
        switch (st.op) {
            case ".ORG" -> {
                int value = eval(st.operand, st.line);
                if (unknown) {
                    throw new AsmException(st.line, ".org needs a value known in advance");
                }
                if (value < 0 || value > 0xFFFF) {
                    throw new AsmException(st.line, ".org address out of range: " + value);
                }
                pc = value;
            }
            case ".RES" -> {
                int n = eval(st.operand, st.line);
                if (unknown || n < 0) {
                    throw new AsmException(st.line, ".res needs a non-negative count known in advance");
                }
                advance(st, n);
            }
            case ".BYTE" -> {
                for (String item : splitList(st.operand, st.line)) {
                    if (item.startsWith("\"")) {
                        if (item.length() < 2 || !item.endsWith("\"")) {
                            throw new AsmException(st.line, "unterminated string " + item);
                        }
                        for (int k = 1; k < item.length() - 1; k++) {
                            emit(st, item.charAt(k));
                        }
                    } else {
                        emit(st, checkByte(st, eval(item, st.line)));
                    }
                }
            }
            case ".WORD" -> {
                for (String item : splitList(st.operand, st.line)) {
                    int v = eval(item, st.line);
                    if (!unknown && (v < -0x8000 || v > 0xFFFF)) {
                        throw new AsmException(st.line, "word out of range: " + v);
                    }
                    emit(st, v & 0xFF);
                    emit(st, (v >> 8) & 0xFF);
                }
            }
            default -> throw new AsmException(st.line, "unknown directive " + st.op);
        }
    }

    private static List<String> splitList(String text, int line) {
        List<String> items = new ArrayList<>();
        int start = 0;
        for (int comma; (comma = indexOutsideQuotes(text, ',', start)) >= 0; start = comma + 1) {
            items.add(text.substring(start, comma).trim());
        }
        items.add(text.substring(start).trim());
        for (String item : items) {
            if (item.isEmpty()) {
                throw new AsmException(line, "empty item in list");
            }
        }
        return items;
    }

    private void instruction(int index, Statement st) {
        int[] row = OPCODES.get(st.op);
        if (row == null) {
            throw new AsmException(st.line, "unknown instruction " + st.op);
        }
        String operand = st.operand;
        int mode;
        String expr;
        Matcher m;
        if (operand.isEmpty() || operand.equalsIgnoreCase("A")) {
            mode = IMP;
            expr = null;
        } else if (operand.startsWith("#")) {
            mode = IMM;
            expr = operand.substring(1);
        } else if ((m = IZX_OPERAND.matcher(operand)).matches()) {
            mode = IZX;
            expr = m.group(1);
        } else if ((m = IZY_OPERAND.matcher(operand)).matches()) {
            mode = IZY;
            expr = m.group(1);
        } else if ((m = IND_OPERAND.matcher(operand)).matches()) {
            mode = IND;
            expr = m.group(1);
        } else if ((m = X_OPERAND.matcher(operand)).matches()) {
            mode = ABX;
            expr = m.group(1);
        } else if ((m = Y_OPERAND.matcher(operand)).matches()) {
            mode = ABY;
            expr = m.group(1);
        } else {
            mode = row[REL] >= 0 ? REL : ABS;
            expr = operand;
        }
        int value = expr == null ? 0 : eval(expr, st.line);
        if (pass == 1) {
            // Choose the zero-page form when the operand is known to fit in one byte.
            if (mode == ABS || mode == ABX || mode == ABY) {
                int zpMode = mode == ABS ? ZP : mode == ABX ? ZPX : ZPY;
                boolean fits = !unknown && value >= 0 && value <= 0xFF;
                if (row[zpMode] >= 0 && (fits || row[mode] < 0)) {
                    mode = zpMode;
                }
            }
            if (row[mode] < 0) {
                throw new AsmException(st.line, st.op + " has no " + modeName(mode) + " addressing mode");
            }
            modes[index] = mode;
        } else {
            mode = modes[index];
        }
        int start = requirePc(st);
        emit(st, row[mode]);
        switch (mode) {
            case IMP -> {
            }
            case IMM -> emit(st, checkByte(st, value));
            case ZP, ZPX, ZPY, IZX, IZY -> {
                if (pass == 2 && (value < 0 || value > 0xFF)) {
                    throw new AsmException(st.line, "zero-page operand out of range: $"
                            + Integer.toHexString(value));
                }
                emit(st, value & 0xFF);
            }
            case REL -> {
                int offset = value - (start + 2);
                if (pass == 2 && (offset < -128 || offset > 127)) {
                    throw new AsmException(st.line, "branch out of range (" + offset + " bytes to "
                            + expr.trim() + ")");
                }
                emit(st, offset & 0xFF);
            }
            default -> {
                if (pass == 2 && (value < 0 || value > 0xFFFF)) {
                    throw new AsmException(st.line, "address out of range: " + value);
                }
                emit(st, value & 0xFF);
                emit(st, (value >> 8) & 0xFF);
            }
        }
    }

    private static String modeName(int mode) {
        return switch (mode) {
            case IMP -> "implied/accumulator";
            case IMM -> "immediate";
            case ZP -> "zero page";
            case ZPX -> "zero page,X";
            case ZPY -> "zero page,Y";
            case ABS -> "absolute";
            case ABX -> "absolute,X";
            case ABY -> "absolute,Y";
            case IZX -> "(indirect,X)";
            case IZY -> "(indirect),Y";
            case IND -> "(indirect)";
            default -> "relative";
        };
    }

    private int checkByte(Statement st, int value) {
        if (pass == 2 && (value < -128 || value > 0xFF)) {
            throw new AsmException(st.line, "byte value out of range: " + value);
        }
        return value & 0xFF;
    }

    private void emit(Statement st, int value) {
        int at = requirePc(st);
        if (at > 0xFFFF) {
            throw new AsmException(st.line, "code runs past $FFFF");
        }
        if (pass == 2) {
            if (written[at]) {
                throw new AsmException(st.line, "overlapping output at $" + hex4(at));
            }
            written[at] = true;
            out[at] = (byte) value;
        }
        pc = at + 1;
    }

    private void advance(Statement st, int n) {
        int at = requirePc(st);
        if (at + n > 0x10000) {
            throw new AsmException(st.line, ".res runs past $FFFF");
        }
        pc = at + n;
    }

    static String hex4(int v) {
        String s = Integer.toHexString(v).toUpperCase(Locale.ROOT);
        return "0000".substring(Math.min(4, s.length())) + s;
    }

    // ---- expressions ----

    private String text;
    private int pos;
    private int exprLine;

    private int eval(String expression, int line) {
        unknown = false;
        text = expression;
        pos = 0;
        exprLine = line;
        int v = expr();
        skipSpace();
        if (pos != text.length()) {
            throw new AsmException(line, "unexpected '" + text.substring(pos) + "' in expression " + expression);
        }
        return v;
    }

    private int expr() {
        skipSpace();
        if (peek() == '<') {
            pos++;
            return expr() & 0xFF;
        }
        if (peek() == '>') {
            pos++;
            return (expr() >> 8) & 0xFF;
        }
        int v = product();
        while (true) {
            skipSpace();
            char c = peek();
            if (c == '+') {
                pos++;
                v += product();
            } else if (c == '-') {
                pos++;
                v -= product();
            } else {
                return v;
            }
        }
    }

    private int product() {
        int v = term();
        while (true) {
            skipSpace();
            char c = peek();
            if (c == '*') {
                pos++;
                v *= term();
            } else if (c == '/') {
                pos++;
                int d = term();
                if (d == 0) {
                    if (pass == 1) {
                        unknown = true;
                        return 0;
                    }
                    throw new AsmException(exprLine, "division by zero in '" + text + "'");
                }
                v /= d;
            } else {
                return v;
            }
        }
    }

    private int term() {
        skipSpace();
        char c = peek();
        if (c == '-') {
            pos++;
            return -term();
        }
        if (c == '$') {
            pos++;
            return number(16);
        }
        if (c == '%') {
            pos++;
            return number(2);
        }
        if (c >= '0' && c <= '9') {
            return number(10);
        }
        if (c == '\'') {
            if (pos + 2 < text.length() && text.charAt(pos + 2) == '\'') {
                int v = text.charAt(pos + 1);
                pos += 3;
                return v;
            }
            throw new AsmException(exprLine, "bad character literal in " + text);
        }
        if (c == '*') {
            pos++;
            return pc;
        }
        if (Character.isLetter(c) || c == '_' || c == '@') {
            int start = pos;
            while (pos < text.length()) {
                char d = text.charAt(pos);
                if (!(Character.isLetterOrDigit(d) || d == '_' || d == '@' || d == '.')) {
                    break;
                }
                pos++;
            }
            String name = text.substring(start, pos);
            Integer v = symbols.get(name);
            if (v == null) {
                if (pass == 1) {
                    unknown = true;
                    return 0;
                }
                throw new AsmException(exprLine, "undefined symbol '" + name + "'");
            }
            return v;
        }
        throw new AsmException(exprLine, "bad expression '" + text + "'");
    }

    private int number(int radix) {
        int start = pos;
        while (pos < text.length() && Character.digit(text.charAt(pos), radix) >= 0) {
            pos++;
        }
        if (start == pos || pos - start > 16) {
            throw new AsmException(exprLine, "bad number in '" + text + "'");
        }
        long v = Long.parseLong(text.substring(start, pos), radix);
        if (v > 0xFFFFFF) {
            throw new AsmException(exprLine, "number too large in '" + text + "'");
        }
        return (int) v;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : 0;
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    /** The output of {@link #assemble}: emitted bytes by address, and the symbol table. */
    public static final class Program {
        private final byte[] memory;
        private final boolean[] written;
        private final TreeMap<String, Integer> symbols;

        Program(byte[] memory, boolean[] written, TreeMap<String, Integer> symbols) {
            this.memory = memory;
            this.written = written;
            this.symbols = symbols;
        }

        /** The value of a label or constant. */
        public int symbol(String name) {
            Integer v = symbols.get(name);
            if (v == null) {
                throw new IllegalArgumentException("no symbol " + name);
            }
            return v;
        }

        /** True if {@code name} is defined. */
        public boolean hasSymbol(String name) {
            return symbols.containsKey(name);
        }

        /**
         * The {@code size} bytes from {@code start}; unwritten bytes are {@code fill}. Throws
         * if any byte was emitted outside that range.
         */
        public byte[] image(int start, int size, int fill) {
            for (int a = 0; a < 0x10000; a++) {
                if (written[a] && (a < start || a >= start + size)) {
                    throw new AsmException(0, "output at $" + hex4(a) + " lies outside $"
                            + hex4(start) + "-$" + hex4(start + size - 1));
                }
            }
            byte[] image = new byte[size];
            for (int i = 0; i < size; i++) {
                image[i] = written[start + i] ? memory[start + i] : (byte) fill;
            }
            return image;
        }

        /** The number of bytes emitted. */
        public int size() {
            int n = 0;
            for (boolean w : written) {
                if (w) {
                    n++;
                }
            }
            return n;
        }
    }
}
