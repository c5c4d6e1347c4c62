# expect: missing-function
def step(model, optimizer, loss_fn, x, y):
    return None
