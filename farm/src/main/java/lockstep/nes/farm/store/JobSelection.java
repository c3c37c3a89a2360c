package lockstep.nes.farm.store;

import java.util.List;

/** Which jobs an operator's action applies to: the given ids, or every job in a state. */
public record JobSelection(List<Long> ids, boolean all) {
    public static JobSelection of(List<Long> ids) {
        return new JobSelection(List.copyOf(ids), false);
    }

    public static JobSelection everything() {
        return new JobSelection(List.of(), true);
    }

    String sql() {
        if (all) {
            return "";
        }
        StringBuilder sb = new StringBuilder(" AND job_id IN (");
        for (int i = 0; i < ids.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(ids.get(i).longValue());
        }
        return ids.isEmpty() ? " AND 1 = 0" : sb.append(')').toString();
    }
}
