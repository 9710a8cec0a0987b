# mistake: merge moves on by one after a merged pair, so its second id is used twice
# varies: right_recount.py

def merge(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 1
        else:
            out.append(ids[i])
            i += 1
    return out
